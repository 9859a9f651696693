//! Charts as SVG (plotters' SVG backend): the latency distribution of a run, and a
//! bench's thread scaling and latency per thread count. Plain data in, SVG text out.

use hdrhistogram::Histogram;
use plotters::coord::CoordTranslate;
use plotters::prelude::*;

/// A chart could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotError(pub String);

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot draw the chart: {}", self.0)
    }
}

impl std::error::Error for PlotError {}

fn err(e: impl std::fmt::Display) -> PlotError {
    PlotError(e.to_string())
}

/// (1/(1-percentile), latency in µs) points of a histogram, as HdrHistogram's plots use.
fn percentile_points(h: &Histogram<u64>) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    for v in h.iter_quantiles(5) {
        let q = v.quantile_iterated_to();
        if q >= 1.0 {
            break;
        }
        let x = 1.0 / (1.0 - q);
        let y = h.highest_equivalent(v.value_iterated_to()) as f64 / 1e3;
        points.push((x, y));
    }
    points
}

/// The percentile at which a marked quantile sits on the x axis (capped for max).
fn x_of(q: f64, x_max: f64) -> f64 {
    if q >= 1.0 {
        x_max
    } else {
        (1.0 / (1.0 - q)).min(x_max)
    }
}

/// Latency by percentile on a log axis of 1/(1-percentile), with p50, p99, p99.9 and
/// max marked; `series` holds one histogram per line (a run, or a bench's thread counts).
pub fn latency_svg(title: &str, series: &[(String, &Histogram<u64>)]) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw_latency(&root, title, series)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A series to draw: its name, its points, its histogram.
type Line<'a> = (&'a String, Vec<(f64, f64)>, &'a Histogram<u64>);

fn draw_latency<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    series: &[(String, &Histogram<u64>)],
) -> Result<(), PlotError> {
    let lines: Vec<Line<'_>> = series
        .iter()
        .map(|(name, h)| (name, percentile_points(h), *h))
        .collect();
    let x_max = lines
        .iter()
        .flat_map(|(_, p, h)| p.iter().map(|q| q.0).chain([h.len().max(10) as f64]))
        .fold(10.0f64, f64::max);
    let y_max = lines
        .iter()
        .map(|(_, _, h)| h.max() as f64 / 1e3)
        .fold(1.0f64, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (1.0f64..x_max).log_scale(),
            (0.1f64..y_max * 1.5).log_scale(),
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("percentile")
        .y_desc("latency per puzzle (µs)")
        .x_label_formatter(&|x| {
            let p = format!("{:.4}", 100.0 * (1.0 - 1.0 / x));
            format!("{}%", p.trim_end_matches('0').trim_end_matches('.'))
        })
        .y_label_formatter(&|y| format!("{y}"))
        .draw()
        .map_err(err)?;
    for (i, (name, points, h)) in lines.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(err)?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        for (mark, q) in [("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999), ("max", 1.0)] {
            let value = if q >= 1.0 {
                h.max()
            } else {
                h.value_at_quantile(q)
            } as f64
                / 1e3;
            let at = (x_of(q, x_max), value.max(0.1));
            // Values are written for the first series only: with several they overlap.
            // The max sits at the right edge, so its label goes to the left.
            let offset = if q >= 1.0 { (-95, -18) } else { (6, 4) };
            let label = if i == 0 {
                format!("{mark} {value:.1} µs")
            } else {
                String::new()
            };
            let marker = EmptyElement::at(at)
                + Circle::new((0, 0), 4, color.filled())
                + Text::new(label, offset, ("sans-serif", 13).into_font().color(&BLACK));
            chart.draw_series([marker]).map_err(err)?;
        }
    }
    legend(&mut chart)
}

/// The series' legend, top left.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)
}

/// A bench's results for one thread count.
pub struct ThreadPoint<'a> {
    /// Threads.
    pub threads: usize,
    /// Mean puzzles/s over the rounds.
    pub rate: f64,
    /// Slowest and fastest rounds' puzzles/s.
    pub range: (f64, f64),
    /// Latency over the timed rounds.
    pub histogram: &'a Histogram<u64>,
}

/// Puzzles/s against threads with the ideal linear line from the first point, beside
/// the latency percentiles per thread count.
pub fn bench_svg(title: &str, points: &[ThreadPoint<'_>]) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (left, right) = root.split_horizontally(520);
        let max_threads = points.iter().map(|p| p.threads).max().unwrap_or(1).max(2) as f64;
        let base = points.first().map_or(1.0, |p| p.rate / p.threads as f64);
        let y_max = points
            .iter()
            .map(|p| p.range.1.max(p.rate))
            .fold(base * max_threads, f64::max)
            * 1.1;
        let mut chart = ChartBuilder::on(&left)
            .caption(format!("{title}: throughput"), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..max_threads + 0.5, 0f64..y_max)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("threads")
            .y_desc("puzzles/s")
            .x_labels(max_threads as usize + 2)
            .x_label_formatter(&|x| {
                if x.fract() == 0.0 {
                    format!("{x:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| format!("{:.0}k", y / 1e3))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                [(0.0, 0.0), (max_threads, base * max_threads)],
                BLACK.mix(0.4).stroke_width(1),
            ))
            .map_err(err)?
            .label("ideal (linear)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.4)));
        let measured: Vec<(f64, f64)> = points.iter().map(|p| (p.threads as f64, p.rate)).collect();
        chart
            .draw_series(LineSeries::new(
                measured.iter().copied(),
                BLUE.stroke_width(2),
            ))
            .map_err(err)?
            .label("measured (mean; bars: min … max)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(measured.iter().map(|&p| Circle::new(p, 4, BLUE.filled())))
            .map_err(err)?;
        chart
            .draw_series(points.iter().map(|p| {
                let x = p.threads as f64;
                ErrorBar::new_vertical(x, p.range.0, p.rate, p.range.1, BLUE.stroke_width(1), 8)
            }))
            .map_err(err)?;
        legend(&mut chart)?;
        let series: Vec<(String, &Histogram<u64>)> = points
            .iter()
            .map(|p| (crate::reports::bench::threads_label(p.threads), p.histogram))
            .collect();
        draw_latency(&right, &format!("{title}: latency"), &series)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
