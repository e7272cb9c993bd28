import java.io.*;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/** Echoes standard input: the raw bytes back to stdout, then a count and digest of what arrived. */
public class Main {
    public static void main(String[] args) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[7];
        InputStream in = System.in;
        for (int n; (n = in.read(buf)) > 0; ) {
            all.write(buf, 0, n);
            sha.update(buf, 0, n);
        }
        byte[] bytes = all.toByteArray();
        System.out.write(bytes);
        System.out.println();
        BufferedReader lines = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8));
        int count = 0;
        for (String line; (line = lines.readLine()) != null; ) {
            count++;
            System.out.println("line " + count + ": " + line.length() + " chars, " + line.codePointCount(0, line.length()) + " code points");
        }
        System.out.println("bytes " + bytes.length + " lines " + count + " sha256 " + HexFormat.of().formatHex(sha.digest()));
        System.out.println("read after EOF " + System.in.read());
    }
}
