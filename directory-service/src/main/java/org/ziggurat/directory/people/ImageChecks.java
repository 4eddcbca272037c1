package org.ziggurat.directory.people;

import javax.imageio.ImageIO;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.awt.image.BufferedImage;

/** An uploaded avatar must be what it says: a PNG or JPEG that decodes, of sane dimensions. */
public final class ImageChecks {

    public static final int MAX_SIDE = 2048;

    private ImageChecks() {
    }

    /** The media type of a valid PNG or JPEG image, or null for anything else. */
    public static String mediaType(byte[] bytes) {
        String type = sniff(bytes);
        if (type == null) {
            return null;
        }
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
            if (image == null || image.getWidth() > MAX_SIDE || image.getHeight() > MAX_SIDE) {
                return null;
            }
            return type;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String sniff(byte[] b) {
        if (b.length > 8 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') {
            return "image/png";
        }
        if (b.length > 3 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xD8 && (b[2] & 0xff) == 0xFF) {
            return "image/jpeg";
        }
        return null;
    }
}
