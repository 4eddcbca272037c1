package org.ziggurat.auth.pages;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;

import java.util.Map;

/**
 * A QR code as inline SVG (ZXing encodes it): the pages' strict content security policy loads no
 * image from anywhere, and the key in it never leaves the page.
 */
final class QrCodes {

    private static final int QUIET_ZONE = 4;

    private QrCodes() {
    }

    /** An {@code <svg>} element of the text's QR code, one path of dark modules, scaled by CSS. */
    static String svg(String text, String title) {
        BitMatrix matrix;
        try {
            matrix = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, 0, 0,
                    Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, QUIET_ZONE));
        } catch (WriterException e) {
            throw new IllegalArgumentException("cannot encode a QR code of this text", e);
        }
        StringBuilder path = new StringBuilder();
        for (int y = 0; y < matrix.getHeight(); y++) {
            for (int x = 0; x < matrix.getWidth(); x++) {
                if (matrix.get(x, y)) {
                    path.append('M').append(x).append(' ').append(y).append("h1v1h-1z");
                }
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\" id=\"totp_qr\" role=\"img\" viewBox=\"0 0 "
                + matrix.getWidth() + " " + matrix.getHeight() + "\" shape-rendering=\"crispEdges\"><title>"
                + escape(title) + "</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" d=\""
                + path + "\"/></svg>";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
