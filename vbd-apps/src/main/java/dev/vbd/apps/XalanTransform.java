package dev.vbd.apps;

import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import javax.xml.transform.Templates;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;

/**
 * Apache Xalan-J XSLT: generated order documents, one per region, transformed to HTML reports by the
 * bundled stylesheet {@code orders.xsl} (key-based grouping, sorting, recursive templates, number
 * formatting). The stylesheet is compiled once per iteration by Xalan's own interpretive processor,
 * named explicitly so that the JDK's built-in XSLTC is never picked, and the shared Templates serve
 * one Transformer per region on a fixed pool of threads.
 *
 * <p>{@code --size} is the number of orders, spread over {@value #REGIONS} regions. Self-check: the rows
 * of every report, parsed back out of the HTML, equal the per-customer and per-month figures computed
 * in Java from the generated orders (order, line and quantity counts, amounts to the cent), as do the
 * order count, distinct items and grand total. The output's CRC is printed, so stock and vbd runs
 * must agree byte for byte on the HTML itself.
 */
public final class XalanTransform extends Workload {

    private static final long SEED = 0x0A1A_4C5FL;
    private static final int REGIONS = 8;
    private static final int CUSTOMERS = 150;
    private static final Corpus NAMES = new Corpus(CUSTOMERS, SEED);
    private static final Pattern CUSTOMER_ROW = Pattern.compile("<tr class=\"customer\"><td class=\"name\">([a-z]+)</td>"
            + "<td class=\"orders\">(\\d+)</td><td class=\"lines\">(\\d+)</td><td class=\"qty\">(\\d+)</td>"
            + "<td class=\"amount\">([0-9,.]+)</td></tr>");
    private static final Pattern MONTH_ROW = Pattern.compile(
            "<tr class=\"month\"><td class=\"month\">(\\d{4}-\\d{2})</td><td class=\"orders\">(\\d+)</td></tr>");
    private static final Pattern GRAND = Pattern.compile("<p class=\"grand\">orders (\\d+) amount ([0-9,.]+)</p>");
    private static final Pattern SKUS = Pattern.compile("<p class=\"skus\">(\\d+)</p>");

    private String stylesheet;

    public static void main(String[] args) {
        new XalanTransform().main("xalan", args, 5_000);
    }

    @Override
    protected void setUp(Options options) throws Exception {
        stylesheet = stylesheet();
    }

    static String stylesheet() throws Exception {
        try (InputStream in = XalanTransform.class.getResourceAsStream("orders.xsl")) {
            check(in != null, "resource dev/vbd/apps/orders.xsl is on the classpath");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** One customer's or month's figures, as the report should show them. */
    private static final class Figures {
        long orders, lines, qty, cents;
    }

    /** The orders of region {@code r} as XML, and the figures the report must show for them. */
    record Region(String xml, Map<String, Figures> customers, Map<String, Long> months, int skus,
                          int orders, long cents) {}

    static Region region(int r, int orders) {
        Random rnd = new Random(SEED + r);
        StringBuilder x = new StringBuilder(orders * 200);
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<orders region=\"region").append(r).append("\">\n");
        Map<String, Figures> customers = new TreeMap<>();
        Map<String, Long> months = new TreeMap<>();
        TreeSet<String> skus = new TreeSet<>();
        long total = 0;
        for (int o = 0; o < orders; o++) {
            String customer = NAMES.vocabulary[NAMES.nextWord(rnd)];
            String day = String.format(Locale.ROOT, "2024-%02d-%02d", 1 + rnd.nextInt(12), 1 + rnd.nextInt(28));
            Figures f = customers.computeIfAbsent(customer, c -> new Figures());
            f.orders++;
            months.merge(day.substring(0, 7), 1L, Long::sum);
            x.append("  <order id=\"").append(r * 1_000_000 + o).append("\" customer=\"").append(customer)
                    .append("\" day=\"").append(day).append("\">\n");
            int lines = 1 + rnd.nextInt(6);
            for (int l = 0; l < lines; l++) {
                String sku = "k" + (1000 + rnd.nextInt(400));
                int qty = 1 + rnd.nextInt(9);
                int price = 100 + rnd.nextInt(20_000);
                skus.add(sku);
                f.lines++;
                f.qty += qty;
                f.cents += (long) qty * price;
                total += (long) qty * price;
                x.append("    <line sku=\"").append(sku).append("\" qty=\"").append(qty).append("\" price=\"")
                        .append(price).append("\"/>\n");
            }
            x.append("  </order>\n");
        }
        x.append("</orders>\n");
        return new Region(x.toString(), customers, months, skus.size(), orders, total);
    }

    static String transform(Templates templates, Region region) throws Exception {
        Transformer t = templates.newTransformer();
        t.setParameter("title", "Orders of");
        StringWriter html = new StringWriter();
        t.transform(new StreamSource(new StringReader(region.xml())), new StreamResult(html));
        return html.toString();
    }

    /** Cents as format-number(cents div 100, '#,##0.00') writes them. */
    private static String money(long cents) {
        DecimalFormat f = new DecimalFormat("#,##0.00", DecimalFormatSymbols.getInstance(Locale.ROOT));
        return f.format(BigDecimal.valueOf(cents, 2));
    }

    static Templates compile(TransformerFactory factory, String stylesheet) throws Exception {
        return factory.newTemplates(new StreamSource(new StringReader(stylesheet), "orders.xsl"));
    }

    @Override
    protected String iteration(Options options, int index) throws Exception {
        int size = options.size();
        TransformerFactory factory = new org.apache.xalan.processor.TransformerFactoryImpl();
        Templates templates = compile(factory, stylesheet);

        List<String> lines = inParallel(options.threads(), REGIONS, r -> {
            Region region = region(r, size / REGIONS + (r < size % REGIONS ? 1 : 0));
            return verify(r, region, transform(templates, region));
        });
        StringBuilder out = new StringBuilder();
        out.append("xalan: orders=").append(size).append(" regions=").append(REGIONS)
                .append(" processor=").append(factory.getClass().getName()).append('\n');
        for (String l : lines) out.append(l);
        return out.toString();
    }

    static String verify(int r, Region region, String html) {
        String where = "region" + r + ": ";
        check(html.startsWith("<html>"), where + "the report starts with <html>: "
                + html.substring(0, Math.min(80, html.length())));
        Matcher m = CUSTOMER_ROW.matcher(html);
        int rows = 0;
        long previousOrders = Long.MAX_VALUE;
        while (m.find()) {
            rows++;
            String name = m.group(1);
            Figures f = region.customers().get(name);
            check(f != null, where + "customer '" + name + "' in the report was generated");
            String expected = f.orders + "/" + f.lines + "/" + f.qty + "/" + money(f.cents);
            String actual = m.group(2) + "/" + m.group(3) + "/" + m.group(4) + "/" + m.group(5);
            check(expected.equals(actual), where + "customer " + name + " orders/lines/qty/amount " + actual
                    + ", expected " + expected);
            check(f.orders <= previousOrders, where + "customers sorted by order count, descending");
            previousOrders = f.orders;
        }
        check(rows == region.customers().size(), where + rows + " customer rows, expected " + region.customers().size());

        m = MONTH_ROW.matcher(html);
        Map<String, Long> months = new TreeMap<>();
        String previous = "";
        while (m.find()) {
            check(m.group(1).compareTo(previous) > 0, where + "months ascending at " + m.group(1));
            previous = m.group(1);
            months.put(m.group(1), Long.parseLong(m.group(2)));
        }
        check(months.equals(region.months()), where + "orders per month " + months + ", expected " + region.months());

        m = SKUS.matcher(html);
        check(m.find() && Integer.parseInt(m.group(1)) == region.skus(), where + "distinct items, expected " + region.skus());
        m = GRAND.matcher(html);
        check(m.find(), where + "the report has a grand total");
        check(Integer.parseInt(m.group(1)) == region.orders() && m.group(2).equals(money(region.cents())),
                where + "grand total '" + m.group() + "', expected " + region.orders() + " orders, amount "
                        + money(region.cents()));
        int divs = 0;
        for (int i = html.indexOf(" class=\"order\">"); i >= 0; i = html.indexOf(" class=\"order\">", i + 1)) divs++;
        check(divs == region.orders(), where + divs + " order sections, expected " + region.orders());

        CRC32 crc = new CRC32();
        crc.update(html.getBytes(StandardCharsets.UTF_8));
        return String.format(Locale.ROOT, "region%d orders=%d customers=%d months=%d skus=%d amount=%s html_chars=%d crc=%08x%n",
                r, region.orders(), rows, months.size(), region.skus(), money(region.cents()), html.length(), crc.getValue());
    }
}
