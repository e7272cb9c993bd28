package dev.vbd.apps;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.xml.transform.Templates;
import org.junit.jupiter.api.Test;

/** A workload's own check rejects a wrong answer, and says what it expected. */
class SelfCheckTest {

    @Test
    void xalanRejectsAReportWithAWrongAmount() throws Exception {
        Templates templates = XalanTransform.compile(new org.apache.xalan.processor.TransformerFactoryImpl(),
                XalanTransform.stylesheet());
        XalanTransform.Region region = XalanTransform.region(0, 40);
        String html = XalanTransform.transform(templates, region);
        String line = XalanTransform.verify(0, region, html);
        assertTrue(line.startsWith("region0 orders=40 "), line);

        int cell = html.indexOf("<td class=\"amount\">") + "<td class=\"amount\">".length();
        char digit = html.charAt(cell);
        String wrong = html.substring(0, cell) + (digit == '9' ? '8' : (char) (digit + 1)) + html.substring(cell + 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> XalanTransform.verify(0, region, wrong));
        assertTrue(e.getMessage().startsWith("self-check failed: region0: customer ")
                && e.getMessage().contains(", expected "), e.getMessage());
    }
}
