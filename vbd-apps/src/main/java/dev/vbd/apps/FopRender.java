package dev.vbd.apps;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.sax.SAXResult;
import javax.xml.transform.stream.StreamSource;
import org.apache.fop.apps.FOUserAgent;
import org.apache.fop.apps.Fop;
import org.apache.fop.apps.FopConfParser;
import org.apache.fop.apps.FopFactory;
import org.apache.fop.apps.FormattingResults;
import org.apache.fop.apps.MimeConstants;
import org.apache.fop.apps.PageSequenceResults;
import org.apache.fop.events.Event;
import org.apache.fop.events.EventFormatter;
import org.apache.fop.events.model.EventSeverity;

/**
 * Apache FOP: generated XSL-FO documents (chapters of justified text with headers and footers, bordered
 * tables, lists, footnotes, and a closing summary that cites every chapter's page number) laid out and
 * rendered to PDF in memory, one document per job on a fixed pool of threads.
 * Only the standard PDF fonts are used, so no font files are read or scanned.
 *
 * <p>{@code --size} is the number of chapters, spread over {@value #DOCUMENTS} documents. Self-check: FOP
 * raises no warning or error event (an overflow, an unresolved page citation, a missing font), it
 * formats one page sequence per chapter plus the summary, each with at least one page, and the PDF
 * starts with {@code %PDF-}, ends with {@code %%EOF} and holds exactly as many page objects, and a page
 * tree count, as FOP reports pages. The CRC of each PDF is printed, so stock and vbd runs must agree on
 * its bytes.
 */
public final class FopRender extends Workload {

    private static final long SEED = 0xF0B_2E4DL;
    private static final int DOCUMENTS = 4;
    private static final Corpus WORDS = new Corpus(2500, SEED);
    private static final Pattern PAGE = Pattern.compile("/Type\\s*/Page(?![a-zA-Z])");
    private static final Pattern PAGE_TREE_COUNT = Pattern.compile(
            "/Type\\s*/Pages\\b[^>]*?/Count\\s+(\\d+)|/Count\\s+(\\d+)[^>]*?/Type\\s*/Pages\\b");
    /**
     * The printed CRC of the PDF must depend on FOP alone, not on the JDK: the streams stay uncompressed
     * (the JDK's zlib may differ) and no sRGB colour profile is embedded (it comes from the JDK's own
     * profile file). The clock and a random file id are the only other parts that change from run to
     * run; the creation date is fixed, and the metadata date and the file id are masked before the CRC.
     */
    private static final String CONFIGURATION = "<fop version=\"1.0\"><renderers><renderer mime=\"application/pdf\">"
            + "<filterList><value>null</value></filterList><disable-srgb-colorspace>true</disable-srgb-colorspace>"
            + "</renderer></renderers></fop>";
    private static final Date CREATED = new Date(1_700_000_000_000L);
    private static final Pattern VARYING = Pattern.compile(
            "/ID \\[<[0-9A-F]+> <[0-9A-F]+>\\]|<xmp:MetadataDate>[^<]*</xmp:MetadataDate>");

    /**
     * One factory per document job. FOP keeps its configuration as a DOM and reads it afresh for every
     * document; the JDK's DOM builds nodes lazily on reads, so reading one configuration from several
     * threads at once races (seen on stock Java as a NullPointerException in FOP's configuration code,
     * and as a document rendered without its configured settings).
     */
    private final FopFactory[] factories = new FopFactory[DOCUMENTS];

    public static void main(String[] args) {
        new FopRender().main("fop", args, 32);
    }

    @Override
    protected void setUp(Options options) throws Exception {
        for (int d = 0; d < DOCUMENTS; d++) {
            FopConfParser conf = new FopConfParser(new ByteArrayInputStream(CONFIGURATION.getBytes(StandardCharsets.UTF_8)),
                    new File(".").toURI());
            factories[d] = conf.getFopFactoryBuilder().build();
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;");
    }

    private static String sentence(Random r, int min, int max) {
        String s = WORDS.text(WORDS.document(r.nextLong(), 0, min, max));
        return Character.toUpperCase(s.charAt(0)) + s.substring(1) + ".";
    }

    /** The FO document {@code d}, with chapters numbered from {@code first}. */
    static String document(int d, int first, int chapters) {
        Random r = new Random(SEED + d);
        StringBuilder fo = new StringBuilder(chapters * 12_000);
        fo.append("""
                <?xml version="1.0" encoding="UTF-8"?>
                <fo:root xmlns:fo="http://www.w3.org/1999/XSL/Format" font-family="Times" font-size="10.5pt">
                  <fo:layout-master-set>
                    <fo:simple-page-master master-name="page" page-height="297mm" page-width="210mm"
                        margin-top="12mm" margin-bottom="12mm" margin-left="20mm" margin-right="20mm">
                      <fo:region-body margin-top="14mm" margin-bottom="14mm" column-count="1"/>
                      <fo:region-before extent="10mm"/>
                      <fo:region-after extent="10mm"/>
                    </fo:simple-page-master>
                  </fo:layout-master-set>
                """);
        for (int c = first; c < first + chapters; c++) chapter(fo, r, d, c);
        fo.append("  <fo:page-sequence master-reference=\"page\" id=\"summary\">\n    <fo:flow flow-name=\"xsl-region-body\">\n"
                + "      <fo:block font-family=\"Helvetica\" font-size=\"14pt\" space-after=\"6pt\">Contents</fo:block>\n");
        for (int c = first; c < first + chapters; c++) {
            fo.append("      <fo:block text-align-last=\"justify\">Chapter ").append(c)
                    .append(" <fo:leader leader-pattern=\"dots\"/> <fo:page-number-citation ref-id=\"ch").append(c)
                    .append("\"/></fo:block>\n");
        }
        fo.append("    </fo:flow>\n  </fo:page-sequence>\n</fo:root>\n");
        return fo.toString();
    }

    /** A chapter's page sequence: its title, paragraphs with footnotes, a table and a list. */
    private static void chapter(StringBuilder fo, Random r, int d, int c) {
        fo.append("  <fo:page-sequence master-reference=\"page\" id=\"seq").append(c).append("\">\n")
                .append("    <fo:static-content flow-name=\"xsl-region-before\"><fo:block font-family=\"Helvetica\""
                        + " font-size=\"8pt\" border-bottom=\"0.5pt solid black\">Document ").append(d)
                .append(", chapter ").append(c).append("</fo:block></fo:static-content>\n")
                .append("    <fo:static-content flow-name=\"xsl-region-after\"><fo:block font-size=\"8pt\""
                        + " text-align=\"center\">page <fo:page-number/></fo:block></fo:static-content>\n")
                .append("    <fo:flow flow-name=\"xsl-region-body\">\n")
                .append("      <fo:block id=\"ch").append(c).append("\" font-family=\"Helvetica\" font-size=\"16pt\""
                        + " font-weight=\"bold\" space-after=\"6pt\" keep-with-next=\"always\">Chapter ").append(c)
                .append(": ").append(escape(sentence(r, 2, 5))).append("</fo:block>\n");
        paragraphs(fo, r);
        table(fo, r);
        list(fo, r);
    }

    private static void paragraphs(StringBuilder fo, Random r) {
        int paragraphs = 4 + r.nextInt(5);
        for (int p = 0; p < paragraphs; p++) {
            fo.append("      <fo:block text-align=\"justify\" space-after=\"4pt\" text-indent=\"1em\">");
            int sentences = 3 + r.nextInt(6);
            for (int s = 0; s < sentences; s++) {
                String text = escape(sentence(r, 5, 18));
                if (s == 1) {
                    fo.append("<fo:inline font-style=\"italic\">").append(text).append("</fo:inline> ");
                } else if (s == 2 && p % 3 == 0) {
                    fo.append(text).append("<fo:footnote><fo:inline baseline-shift=\"super\" font-size=\"7pt\">")
                            .append(p + 1).append("</fo:inline><fo:footnote-body><fo:block font-size=\"8pt\">")
                            .append(p + 1).append(". ").append(escape(sentence(r, 4, 10)))
                            .append("</fo:block></fo:footnote-body></fo:footnote> ");
                } else {
                    fo.append(text).append(' ');
                }
            }
            fo.append("</fo:block>\n");
        }
    }

    private static void table(StringBuilder fo, Random r) {
        int rows = 5 + r.nextInt(20);
        fo.append("""
                      <fo:table table-layout="fixed" width="100%" border-collapse="separate" space-before="6pt" space-after="6pt">
                        <fo:table-column column-width="10%"/><fo:table-column column-width="50%"/>
                        <fo:table-column column-width="20%"/><fo:table-column column-width="20%"/>
                        <fo:table-header><fo:table-row font-weight="bold">
                          <fo:table-cell border="0.5pt solid black" padding="2pt"><fo:block>#</fo:block></fo:table-cell>
                          <fo:table-cell border="0.5pt solid black" padding="2pt"><fo:block>item</fo:block></fo:table-cell>
                          <fo:table-cell border="0.5pt solid black" padding="2pt"><fo:block text-align="end">qty</fo:block></fo:table-cell>
                          <fo:table-cell border="0.5pt solid black" padding="2pt"><fo:block text-align="end">price</fo:block></fo:table-cell>
                        </fo:table-row></fo:table-header>
                        <fo:table-body>
                """);
        for (int row = 0; row < rows; row++) {
            fo.append("          <fo:table-row><fo:table-cell border=\"0.5pt solid gray\" padding=\"2pt\"><fo:block>")
                    .append(row + 1).append("</fo:block></fo:table-cell><fo:table-cell border=\"0.5pt solid gray\""
                            + " padding=\"2pt\"><fo:block>").append(escape(sentence(r, 1, 4)))
                    .append("</fo:block></fo:table-cell><fo:table-cell border=\"0.5pt solid gray\" padding=\"2pt\">"
                            + "<fo:block text-align=\"end\">").append(1 + r.nextInt(99))
                    .append("</fo:block></fo:table-cell><fo:table-cell border=\"0.5pt solid gray\" padding=\"2pt\">"
                            + "<fo:block text-align=\"end\">")
                    .append(String.format(Locale.ROOT, "%d.%02d", r.nextInt(500), r.nextInt(100)))
                    .append("</fo:block></fo:table-cell></fo:table-row>\n");
        }
        fo.append("        </fo:table-body>\n      </fo:table>\n");
    }

    private static void list(StringBuilder fo, Random r) {
        fo.append("      <fo:list-block provisional-distance-between-starts=\"14pt\">\n");
        int items = 2 + r.nextInt(5);
        for (int i = 0; i < items; i++) {
            fo.append("        <fo:list-item><fo:list-item-label end-indent=\"label-end()\"><fo:block>&#x2022;</fo:block>"
                    + "</fo:list-item-label><fo:list-item-body start-indent=\"body-start()\"><fo:block>")
                    .append(escape(sentence(r, 6, 20))).append("</fo:block></fo:list-item-body></fo:list-item>\n");
        }
        fo.append("      </fo:list-block>\n    </fo:flow>\n  </fo:page-sequence>\n");
    }

    @Override
    protected String iteration(Options options, int index) throws Exception {
        int size = options.size();
        List<String> lines = inParallel(options.threads(), DOCUMENTS, d -> {
            int chapters = size / DOCUMENTS + (d < size % DOCUMENTS ? 1 : 0);
            int first = d * (size / DOCUMENTS) + Math.min(d, size % DOCUMENTS);
            String fo = document(d, first, chapters);

            FopFactory fopFactory = factories[d];
            FOUserAgent agent = fopFactory.newFOUserAgent();
            agent.setCreationDate(CREATED);
            agent.setProducer("vbd-apps");
            List<String> problems = new ArrayList<>();
            agent.getEventBroadcaster().addEventListener((Event e) -> {
                if (e.getSeverity() != EventSeverity.INFO) {
                    synchronized (problems) {
                        problems.add(e.getSeverity() + ": " + EventFormatter.format(e, Locale.ROOT));
                    }
                }
            });
            ByteArrayOutputStream pdf = new ByteArrayOutputStream();
            Fop fop = fopFactory.newFop(MimeConstants.MIME_PDF, agent, pdf);
            Transformer identity = TransformerFactory.newInstance().newTransformer();
            identity.transform(new StreamSource(new StringReader(fo)), new SAXResult(fop.getDefaultHandler()));
            return verify(d, chapters, fop.getResults(), pdf.toByteArray(), problems);
        });
        StringBuilder out = new StringBuilder();
        out.append("fop: chapters=").append(size).append(" documents=").append(DOCUMENTS).append('\n');
        for (String l : lines) out.append(l);
        return out.toString();
    }

    private static String verify(int d, int chapters, FormattingResults results, byte[] bytes, List<String> problems) {
        String where = "document " + d + ": ";
        check(problems.isEmpty(), where + "FOP reported no warnings or errors: " + problems);
        String pdf = new String(bytes, StandardCharsets.ISO_8859_1);
        check(pdf.startsWith("%PDF-"), where + "the output starts with %PDF-");
        check(pdf.stripTrailing().endsWith("%%EOF"), where + "the output ends with %%EOF");
        check(!pdf.contains("/FlateDecode"), where + "the PDF's streams are uncompressed, as configured");
        int pages = results.getPageCount();
        @SuppressWarnings("unchecked")
        List<PageSequenceResults> sequences = results.getPageSequences();
        check(sequences.size() == chapters + 1, where + sequences.size() + " page sequences, expected " + (chapters + 1));
        int sum = 0;
        for (PageSequenceResults s : sequences) {
            check(s.getPageCount() >= 1, where + "page sequence " + s.getID() + " has pages");
            sum += s.getPageCount();
        }
        check(sum == pages, where + "pages of the sequences add up to " + sum + ", FOP reports " + pages);
        int pageObjects = 0;
        for (Matcher m = PAGE.matcher(pdf); m.find(); ) pageObjects++;
        check(pageObjects == pages, where + pageObjects + " page objects in the PDF, FOP reports " + pages + " pages");
        Matcher tree = PAGE_TREE_COUNT.matcher(pdf);
        check(tree.find(), where + "the PDF has a page tree with a count");
        int count = Integer.parseInt(tree.group(1) != null ? tree.group(1) : tree.group(2));
        check(count == pages, where + "page tree /Count " + count + ", FOP reports " + pages + " pages");
        StringBuilder perSequence = new StringBuilder();
        for (PageSequenceResults s : sequences) perSequence.append(' ').append(s.getPageCount());
        Matcher varying = VARYING.matcher(pdf);
        int masked = 0;
        StringBuilder fixed = new StringBuilder(pdf.length());
        while (varying.find()) {
            varying.appendReplacement(fixed, "");
            masked++;
        }
        varying.appendTail(fixed);
        check(masked == 2, where + "the PDF has one file id and one metadata date to mask, found " + masked);
        CRC32 crc = new CRC32();
        crc.update(fixed.toString().getBytes(StandardCharsets.ISO_8859_1));
        return String.format(Locale.ROOT, "document%d chapters=%d pages=%d pdf_bytes=%d crc=%08x pages_per_sequence=%s%n",
                d, chapters, pages, bytes.length, crc.getValue(), perSequence.toString().trim());
    }
}
