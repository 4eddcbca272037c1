package org.ziggurat.directory.people;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The avatar a person has until they upload one: a 50-pixel PNG, a symmetric 5×5 pattern in one
 * colour, both taken from a hash of the username, so it is the same on every replica and every
 * day.
 */
public final class DefaultAvatars {

    public static final int SIZE = 50;
    private static final int CELL = 8;
    private static final int MARGIN = (SIZE - 5 * CELL) / 2;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private DefaultAvatars() {
    }

    public static byte[] png(String username) {
        byte[] hash = sha256(username);
        float hue = (hash[0] & 0xff) / 255f;
        Color ink = Color.getHSBColor(hue, 0.55f, 0.75f);
        BufferedImage image = new BufferedImage(SIZE, SIZE, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(new Color(0xF2F2F2));
            g.fillRect(0, 0, SIZE, SIZE);
            g.setColor(ink);
            for (int row = 0; row < 5; row++) {
                for (int col = 0; col < 3; col++) {
                    if ((hash[1 + row * 3 + col] & 1) == 1) {
                        g.fillRect(MARGIN + col * CELL, MARGIN + row * CELL, CELL, CELL);
                        g.fillRect(MARGIN + (4 - col) * CELL, MARGIN + row * CELL, CELL, CELL);
                    }
                }
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
