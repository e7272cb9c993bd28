package dev.vbd.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * The bench's JSON: indented, number arrays on one line, numbers to six significant digits (more
 * than any timing here resolves). Non-finite numbers become null: JSON has no NaN, and an interval
 * that does not exist must not look like a number.
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new SimpleModule()
                    .addSerializer(Double.class, new Rounded())
                    .addSerializer(double.class, new Rounded())
                    .addSerializer(double[].class, new RoundedArray()));

    private Json() {}

    static String write(Object value) {
        try {
            return MAPPER.writer(new Printer()).writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("no JSON form for " + value, e);
        }
    }

    static void number(JsonGenerator g, double d) throws IOException {
        if (!Double.isFinite(d)) {
            g.writeNull();
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            g.writeNumber(String.format(Locale.ROOT, "%.1f", d));
        } else if (Double.toString(d).contains("E")) {
            g.writeNumber(String.format(Locale.ROOT, "%.6g", d));
        } else {
            String s = new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
            g.writeNumber(s.contains(".") ? s : s + ".0");
        }
    }

    private static final class Rounded extends JsonSerializer<Double> {
        @Override
        public void serialize(Double d, JsonGenerator g, SerializerProvider p) throws IOException {
            number(g, d);
        }
    }

    private static final class RoundedArray extends JsonSerializer<double[]> {
        @Override
        public void serialize(double[] a, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartArray(a, a.length);
            for (double d : a) number(g, d);
            g.writeEndArray();
        }
    }

    /** Jackson's indentation with {@code "key": value}; arrays stay on one line. */
    private static final class Printer extends DefaultPrettyPrinter {
        Printer() {
            indentObjectsWith(new DefaultIndenter("  ", "\n"));
        }

        @Override
        public DefaultPrettyPrinter createInstance() {
            return new Printer();
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }
    }
}
