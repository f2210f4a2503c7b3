package io.rdmarepl.harness.bench.lag;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * {@code --chart FILE}: two plots, one above the other, in one PNG or SVG (by the file's extension; XChart
 * draws, VectorGraphics2D writes SVG). Above: the lag's cumulative distribution of every system, log-scale
 * lag. Below: lag over the measured window, per system and round, the worst probe of each 200 ms. With a
 * synchronous system ({@code --mode sync}) a third plot comes first: every system's commit latency distribution.
 */
final class LagChart {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 520;
    private static final long BUCKET_US = 200_000;
    private static final Color[] COLORS = {new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4), new Color(0x2C, 0xA0, 0x2C),
        new Color(0x94, 0x67, 0xBD)};

    private LagChart() {
    }

    static void write(Path file, List<SystemResult> results, String subtitle) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<XYChart> charts = new ArrayList<>();
        if (results.stream().anyMatch(r -> r.system().synchronous())) {
            charts.add(cdf("Commit latency on the primary, cumulative distribution (" + subtitle + ")", "commit (ms, log scale)",
                    results, SystemResult::commit, "commits"));
        }
        charts.add(cdf("Commit -> applied lag, cumulative distribution (" + subtitle + ")", "lag (ms, log scale)", results,
                SystemResult::lag, "probes"));
        charts.add(overTime(results));
        boolean svg = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".svg");
        if (svg) {
            VectorGraphics2D g = new VectorGraphics2D();
            paint(g, charts);
            try (OutputStream out = Files.newOutputStream(file)) {
                new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, WIDTH, HEIGHT * charts.size())).writeTo(out);
            }
        } else {
            BufferedImage image = new BufferedImage(WIDTH, HEIGHT * charts.size(), BufferedImage.TYPE_INT_RGB);
            Graphics2D g = image.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            paint(g, charts);
            g.dispose();
            ImageIO.write(image, "png", file.toFile());
        }
    }

    private static void paint(Graphics2D g, List<XYChart> charts) {
        for (XYChart chart : charts) {
            chart.paint(g, WIDTH, HEIGHT);
            g.translate(0, HEIGHT);
        }
    }

    private static XYChart cdf(String title, String xTitle, List<SystemResult> results, Function<SystemResult, Histogram> histogram,
                               String unit) {
        XYChart chart = base(title, xTitle, "percentile");
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        for (int i = 0; i < results.size(); i++) {
            SystemResult r = results.get(i);
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            // steps 5% apart on the log-scale axis, only where the distribution moves: a few hundred points
            Histogram h = histogram.apply(r);
            if (h.getTotalCount() == 0) {
                continue;
            }
            for (HistogramIterationValue v : h.logarithmicBucketValues(10, 1.05)) {
                if (v.getCountAddedInThisIterationStep() > 0) {
                    x.add(Math.max(0.001, v.getValueIteratedTo() / 1000.0));
                    y.add(v.getPercentileLevelIteratedTo());
                }
            }
            if (x.isEmpty()) {
                continue;
            }
            XYSeries series = chart.addSeries(r.system().label() + " (" + h.getTotalCount() + " " + unit + ")", x, y);
            series.setLineColor(COLORS[i % COLORS.length]);
            series.setLineStyle(new BasicStroke(2f));
            series.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static XYChart overTime(List<SystemResult> results) {
        XYChart chart = base("Lag over the measured window (worst probe per 200 ms, every round)", "seconds into the window",
                "lag (ms, log scale)");
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        double lowest = Double.MAX_VALUE;
        double highest = 0.001;
        for (int i = 0; i < results.size(); i++) {
            SystemResult r = results.get(i);
            for (RoundResult round : r.rounds()) {
                if (round.samples().isEmpty()) {
                    continue;
                }
                TreeMap<Long, Long> worst = new TreeMap<>();
                long t0 = round.samples().get(0).sentAtUs();
                for (ProbeSample s : round.samples()) {
                    worst.merge((s.sentAtUs() - t0) / BUCKET_US, s.lagUs(), Math::max);
                }
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                worst.forEach((bucket, lagUs) -> {
                    x.add(bucket * BUCKET_US / 1e6);
                    y.add(Math.max(0.001, lagUs / 1000.0));
                });
                boolean first = round == r.rounds().get(0);
                lowest = Math.min(lowest, y.stream().mapToDouble(Double::doubleValue).min().orElse(lowest));
                highest = Math.max(highest, y.stream().mapToDouble(Double::doubleValue).max().orElse(highest));
                XYSeries series = chart.addSeries(first ? r.system().label() + " (" + r.rounds().size() + " rounds)"
                        : r.system().label() + " r" + round.round(), x, y);
                series.setShowInLegend(first);
                series.setLineColor(COLORS[i % COLORS.length]);
                series.setLineStyle(new BasicStroke(1.2f));
                series.setMarker(SeriesMarkers.NONE);
            }
        }
        if (lowest <= highest) {
            // whole decades, so that the log axis has a labelled tick at each end
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))));
            chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(highest))));
        }
        return chart;
    }

    private static XYChart base(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setDefaultSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        chart.getStyler().setLegendBorderColor(new Color(0xCC, 0xCC, 0xCC));
        chart.getStyler().setChartTitleBoxVisible(false);
        chart.getStyler().setAntiAlias(false); // jagged lines, but a PNG a third the size (text stays smooth)
        return chart;
    }
}
