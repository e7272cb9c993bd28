package dev.vbd.bench;

import dev.vbd.host.Stats.Estimate;
import dev.vbd.host.Stats;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The PNG plots of a run. Intervals are drawn as whiskers from their own low and high ends rather
 * than as symmetric error bars: a ratio's Fieller interval is not symmetric about the ratio.
 */
final class Plots {
    private Plots() {}

    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
            new Color(0xff7f0e), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
            new Color(0x7f7f7f), new Color(0xbcbd22)};

    static {
        System.setProperty("java.awt.headless", "true");
    }

    /** Relative time per workload (each configuration over its baseline) with 95% whiskers, then the geometric mean. */
    static void relativeTime(RunRecord r, Path file) throws IOException {
        int t = r.options.headlineThreads();
        List<WorkloadSpec> ws = r.completed();
        List<Config> cs = r.compared();
        if (ws.isEmpty() || cs.isEmpty()) return;
        List<String> labels = new ArrayList<>();
        for (WorkloadSpec w : ws) labels.add(w.id());
        labels.add("geomean");
        XYChart chart = chart(Math.max(800, 110 * labels.size() + 200), 520,
                "Relative execution time (" + t + (t == 1 ? " thread" : " threads") + ", 95% intervals)",
                "", "time / baseline");
        double width = 0.6;
        for (int k = 0; k < cs.size(); k++) {
            Config c = cs.get(k);
            Color color = PALETTE[k % PALETTE.length];
            double offset = cs.size() == 1 ? 0 : -width / 2 + width * k / (cs.size() - 1);
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            List<Double> logs = new ArrayList<>();
            for (int i = 0; i < ws.size(); i++) {
                Estimate e = r.analysis.ratio(ws.get(i).id(), c, t);
                if (e == null) continue;
                xs.add(i + offset);
                ys.add(e.value());
                logs.add(e.value());
                whisker(chart, c.id + "#" + i, i + offset, e, color);
            }
            if (!logs.isEmpty()) {
                xs.add(ws.size() + offset);
                ys.add(Stats.geomean(logs));
            }
            if (xs.isEmpty()) continue;
            XYSeries s = chart.addSeries(c.id + " / " + c.baseline, xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(color);
            s.setLineColor(color);
        }
        chart.getStyler().setXAxisMin(-0.6);
        chart.getStyler().setXAxisMax(labels.size() - 0.4);
        chart.setCustomXAxisTickLabelsFormatter(categoryLabels(labels::get, labels.size()));
        chart.addAnnotation(new AnnotationLine(1.0, false, false));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** The headline configuration over its baseline against the thread count, one line per workload. */
    static boolean threads(RunRecord r, Path file) throws IOException {
        if (r.options.threads.size() < 2 || r.headline == null) return false;
        XYChart chart = chart(900, 520, r.headline.id + " / " + r.headline.baseline + " against threads (95% intervals)",
                "threads", "time / baseline");
        // one entry per workload: a row of ten under the plot would be cut off at its right edge
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        int k = 0;
        boolean any = false;
        List<Integer> ts = r.options.threads;
        for (WorkloadSpec w : r.completed()) {
            if (!w.threaded()) continue;
            Color color = PALETTE[k % PALETTE.length];
            // a small sideways shift per workload keeps overlapping whiskers apart
            double shift = 0.02 * (k - 2);
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int t : ts) {
                Estimate e = r.analysis.ratio(w.id(), r.headline, t);
                if (e == null) continue;
                xs.add(t + shift);
                ys.add(e.value());
                whisker(chart, w.id() + "#" + t, t + shift, e, color);
            }
            if (xs.isEmpty()) continue;
            any = true;
            XYSeries s = chart.addSeries(w.id(), xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(color);
            s.setLineColor(color);
            k++;
        }
        if (!any) return false;
        chart.getStyler().setXAxisMin(ts.get(0) - 0.3);
        chart.getStyler().setXAxisMax(ts.get(ts.size() - 1) + 0.3);
        int maxThreads = ts.get(ts.size() - 1);
        chart.setCustomXAxisTickLabelsFormatter(categoryLabels(i -> ts.contains(i) ? String.valueOf(i) : "\u2009".repeat(i + 1), maxThreads + 1));
        chart.addAnnotation(new AnnotationLine(1.0, false, false));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /**
     * Overhead against the number of relaxed scopes the advisor chose: each workload's ratio to stock
     * under vbd (no scope) and under each advised configuration, and their geometric mean.
     */
    static boolean scopes(RunRecord r, Path file) throws IOException {
        int t = r.options.headlineThreads();
        List<Config> advised = new ArrayList<>(r.compared().stream()
                .filter(c -> c.relaxation == Config.Relaxation.ADVISED && c.fields.equals(Config.VBD.fields)
                        && c.adviceScope.equals(Config.VBD_ADVISED.adviceScope)).toList());
        if (advised.size() < 2 && !(advised.size() == 1 && r.compared().contains(Config.VBD))) return false;
        advised.sort(java.util.Comparator.comparingInt(c -> c.advisedRules));
        List<Config> points = new ArrayList<>();
        if (r.compared().contains(Config.VBD)) points.add(Config.VBD);
        points.addAll(advised);
        XYChart chart = chart(900, 520, "Overhead against relaxed scopes chosen by vbd advise (" + t
                + (t == 1 ? " thread" : " threads") + ", 95% intervals)", "relaxed scopes (at most)", "time / stock");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        int k = 0;
        List<List<Double>> byPoint = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) byPoint.add(new ArrayList<>());
        for (WorkloadSpec w : r.completed()) {
            Color color = PALETTE[k % PALETTE.length];
            double shift = 0.15 * (k - 4);
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int i = 0; i < points.size(); i++) {
                Estimate e = r.analysis.ratio(w.id(), points.get(i), t);
                if (e == null) continue;
                double x = points.get(i).advisedRules + shift;
                xs.add(x);
                ys.add(e.value());
                byPoint.get(i).add(e.value());
                whisker(chart, w.id() + "#" + i, x, e, color);
            }
            k++;
            if (xs.isEmpty()) continue;
            XYSeries s = chart.addSeries(w.id(), xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(color);
            s.setLineColor(color);
        }
        List<Double> gx = new ArrayList<>();
        List<Double> gy = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            if (byPoint.get(i).isEmpty()) continue;
            gx.add((double) points.get(i).advisedRules);
            gy.add(Stats.geomean(byPoint.get(i)));
        }
        if (gx.isEmpty()) return false;
        XYSeries g = chart.addSeries("geomean", gx, gy);
        g.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        g.setMarker(SeriesMarkers.DIAMOND);
        g.setMarkerColor(Color.BLACK);
        g.setLineColor(Color.BLACK);
        g.setLineStyle(new BasicStroke(3f));
        chart.addAnnotation(new AnnotationLine(1.0, false, false));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /**
     * Tick labels for categories at integer x: the category's name there, blank elsewhere. The blanks
     * must differ from each other, because XChart drops every tick label of an axis whose labels
     * repeat: each is the tick's position written in binary with a space and a thin space as digits.
     */
    private static java.util.function.Function<Double, String> categoryLabels(java.util.function.IntFunction<String> name, int n) {
        return x -> {
            long i = Math.round(x);
            if (Math.abs(x - i) < 1e-6 && i >= 0 && i < n) return name.apply((int) i);
            long code = Math.round((x + 2) * 40);
            StringBuilder blank = new StringBuilder(" ");
            for (int bit = 0; bit < 12; bit++) blank.append((code >> bit & 1) == 0 ? ' ' : '\u2009');
            return blank.toString();
        };
    }

    private static XYChart chart(int width, int height, String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(width).height(height).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        Styler s = chart.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setYAxisDecimalPattern("0.00");
        chart.getStyler().setMarkerSize(9);
        return chart;
    }

    private static void whisker(XYChart chart, String name, double x, Estimate e, Color color) {
        if (!e.bounded()) return;
        // a time ratio below zero means nothing; Fieller's interval reaches there when the run is noisy
        XYSeries s = chart.addSeries(name, new double[] {x, x}, new double[] {Math.max(0, e.lo()), e.hi()});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(new BasicStroke(2f));
        s.setShowInLegend(false);
    }
}
