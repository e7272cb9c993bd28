import java.text.Normalizer;
import java.util.*;
import java.util.regex.*;
import java.util.stream.*;

/** Strings: non-ASCII text is printed as escapes too, so that the console charset cannot blur a difference. */
public class Main {
    static String esc(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> {
            if (cp >= 32 && cp < 127) b.appendCodePoint(cp); else b.append(String.format("\\u{%X}", cp));
        });
        return b.toString();
    }

    public static void main(String[] args) {
        String a = "alpha", n = null;
        int i = 42; long l = -7L; double d = 3.5; char c = 'z'; boolean t = true;
        System.out.println("concat " + a + i + l + d + c + t + n + 'q' + 1.0f + (Object) List.of(1));
        String acc = "";
        for (int k = 0; k < 20; k++) acc += k % 3 == 0 ? "#" : k;
        System.out.println("loop concat " + acc);
        System.out.println(String.format(Locale.ROOT, "format |%5d|%-6s|%08.3f|%x|%,d|%e|%b|%c|%10.2f%%|", 42, "ab", Math.PI, 255, 1234567, 12345.678, null, 'X', 99.555));
        System.out.println(String.format(Locale.ROOT, "%2$s %1$s %2$s", "one", "two"));
        System.out.println("formatted " + "%s=%d".formatted("k", 7));

        StringBuilder sb = new StringBuilder("hello");
        sb.insert(0, '[').append(']').reverse().setCharAt(0, '<');
        sb.replace(1, 3, "XYZ").deleteCharAt(sb.length() - 1).append(123).append(4.5).append(true);
        System.out.println("StringBuilder " + sb + " len=" + sb.length() + " idx=" + sb.indexOf("l"));
        StringBuilder big = new StringBuilder();
        for (int k = 0; k < 10_000; k++) big.append((char) ('a' + k % 26));
        System.out.println("big " + big.length() + " " + big.toString().hashCode() + " " + big.substring(9_990));

        Pattern p = Pattern.compile("(?<key>[a-z]+)=(?<val>\\d+)");
        Matcher m = p.matcher("a=1, bb=22; ccc=333 dd=x e=5");
        List<String> found = new ArrayList<>();
        while (m.find()) found.add(m.group("key") + "->" + m.group("val") + "@" + m.start());
        System.out.println("regex " + found);
        System.out.println("replaceAll " + "2024-01-15 and 1999-12-31".replaceAll("(\\d{4})-(\\d{2})-(\\d{2})", "$3/$2/$1"));
        System.out.println("matches " + "abc123".matches("[a-z]+\\d+") + " " + Pattern.matches("a*b", "aaab"));
        System.out.println("split " + Arrays.toString("a,b,,c,,".split(",")) + " " + Arrays.toString("a,b,,c,,".split(",", -1))
                + " " + Arrays.toString(" x  y z ".trim().split("\\s+")) + " " + Arrays.toString("a1b22c333".split("\\d+", 2)));
        System.out.println("join " + String.join("|", List.of("x", "y", "z")) + " repeat " + "ab".repeat(3)
                + " strip [" + "  s  ".strip() + "] lines " + "l1\nl2\r\nl3".lines().count());

        String uni = "Gr\u00fc\u00dfe \u65e5\u672c \uD83D\uDE00 e\u0301 \u0130stanbul";
        System.out.println("unicode " + esc(uni) + " length=" + uni.length() + " codePoints=" + uni.codePointCount(0, uni.length()));
        System.out.println("upper " + esc(uni.toUpperCase(Locale.ROOT)) + " lower " + esc(uni.toLowerCase(Locale.ROOT)));
        System.out.println("NFC " + esc(Normalizer.normalize(uni, Normalizer.Form.NFC)) + " NFD length " + Normalizer.normalize(uni, Normalizer.Form.NFD).length());
        System.out.println("surrogates " + Character.isHighSurrogate(uni.charAt(14)) + " " + Integer.toHexString(uni.codePointAt(14))
                + " chars " + uni.chars().filter(Character::isLetter).count());
        byte[] utf8 = uni.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] utf16 = uni.getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        System.out.println("bytes utf8=" + utf8.length + " utf16=" + utf16.length + " roundtrip="
                + new String(utf8, java.nio.charset.StandardCharsets.UTF_8).equals(uni));
        System.out.println("compare " + "apple".compareTo("apricot") + " " + "A".compareToIgnoreCase("a") + " "
                + "\u00e9".equals("e\u0301") + " intern " + (new String("lit").intern() == "lit"));
        System.out.println("hash " + Stream.of("", "a", "hello world", uni).map(s -> Integer.toString(s.hashCode())).collect(Collectors.joining(",")));
        System.out.println("text block " + """
                first
                  second \
                continued
                """.replace("\n", "\\n"));
        System.out.println("numbers " + Integer.parseInt("-123") + " " + Long.toString(255, 16) + " " + Double.toString(0.1 + 0.2)
                + " " + Float.toString(1.0f / 3) + " " + Integer.toBinaryString(42) + " " + Double.parseDouble("1e-3"));
        System.out.println("chars " + String.valueOf(new char[]{'o', 'k'}) + " " + "abc".toCharArray().length + " " + "x".charAt(0));
    }
}
