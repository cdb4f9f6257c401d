//! CSV files and plots of a simulation (plotters: SVG always, PNG when a
//! TrueType font is found on the system for the labels).

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use tripoley_bots::sim::{Stage, Summary};

use crate::setup::thousands;

/// Where common systems keep a plain sans-serif font.
const FONT_PATHS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a system font for PNG labels; false when none is found.
fn register_font() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        FONT_PATHS.iter().any(|p| {
            std::fs::read(p).is_ok_and(|bytes| {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok()
            })
        })
    })
}

fn err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

/// Writes `deals.csv`, `seats.csv`, `spaces.csv`, `payouts.csv` and the
/// plots; returns each file written with what it holds, for the user.
pub fn write_all(dir: &Path, s: &Summary) -> io::Result<Vec<(String, String)>> {
    std::fs::create_dir_all(dir)?;
    write_csvs(dir, s)?;
    let png = register_font();
    let charts = [chips_chart(s), spaces_chart(s), payouts_chart(s)];
    let mut files = Vec::new();
    for (name, chart) in ["chips", "spaces", "payouts"].iter().zip(&charts) {
        draw(
            &SVGBackend::new(&dir.join(format!("{name}.svg")), SIZE).into_drawing_area(),
            chart,
        )?;
        if png {
            draw(
                &BitMapBackend::new(&dir.join(format!("{name}.png")), SIZE).into_drawing_area(),
                chart,
            )?;
        }
        let kinds = if png { "png, svg" } else { "svg" };
        files.push((format!("{name}.{{{kinds}}}"), chart.title.clone()));
    }
    if !png {
        eprintln!("note: no TrueType font found for PNG labels; wrote SVG plots only");
    }
    files.push((
        "deals.csv".into(),
        format!(
            "the first {} of {} deals, one row each: chips won per seat, chips on each space",
            thousands(s.series.len() as u64),
            thousands(s.deals)
        ),
    ));
    files.push((
        "seats.csv".into(),
        "chips won per deal per seat and stage, all deals".into(),
    ));
    files.push((
        "spaces.csv".into(),
        "per layout space: how often it paid, its average payout and size, all deals".into(),
    ));
    files.push((
        "payouts.csv".into(),
        "per layout space: how many deals paid each amount, all deals".into(),
    ));
    Ok(files)
}

fn write_csvs(dir: &Path, s: &Summary) -> io::Result<()> {
    let mut deals = String::from("deal");
    for i in 0..s.players {
        let _ = write!(deals, ",seat{i}_won");
    }
    for sp in &s.spaces {
        let _ = write!(deals, ",{}_size", sp.space);
    }
    deals.push('\n');
    for row in &s.series {
        let _ = write!(deals, "{}", row.deal);
        for w in &row.won {
            let _ = write!(deals, ",{w}");
        }
        for c in &row.spaces {
            let _ = write!(deals, ",{c}");
        }
        deals.push('\n');
    }
    std::fs::write(dir.join("deals.csv"), deals)?;
    let mut seats = String::from("seat,bot,stage,mean,ci95,samples\n");
    for seat in &s.seats {
        let _ = writeln!(
            seats,
            "{},{},total,{},{},{}",
            seat.seat,
            seat.bot,
            seat.chips.chips_per_deal.mean,
            seat.chips.chips_per_deal.ci95,
            seat.chips.chips_per_deal.samples
        );
        for (stage, e) in &seat.chips.by_stage {
            let stage = serde_json::to_value(stage).expect("serialise");
            let _ = writeln!(
                seats,
                "{},{},{},{},{},{}",
                seat.seat,
                seat.bot,
                stage.as_str().unwrap_or(""),
                e.mean,
                e.ci95,
                e.samples
            );
        }
    }
    std::fs::write(dir.join("seats.csv"), seats)?;
    let mut spaces = String::from("space,claim_rate,average_payout,average_size\n");
    let mut payouts = String::from("space,payout,deals\n");
    for sp in &s.spaces {
        let _ = writeln!(
            spaces,
            "{},{},{},{}",
            sp.space, sp.claim_rate, sp.average_payout, sp.average_size
        );
        for (p, n) in &sp.payouts {
            let _ = writeln!(payouts, "{},{p},{n}", sp.space);
        }
    }
    std::fs::write(dir.join("spaces.csv"), spaces)?;
    std::fs::write(dir.join("payouts.csv"), payouts)
}

/// The size of every plot, in pixels.
const SIZE: (u32, u32) = (960, 560);

/// Ten colours told apart easily (Tableau 10), one per seat or series.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// One plot's data, worked out before drawing (so tests can check it).
#[derive(Debug)]
struct Chart {
    title: String,
    y_label: String,
    x_label: String,
    y_range: std::ops::Range<f64>,
    body: Body,
}

#[derive(Debug)]
enum Body {
    /// Groups of bars along x, one bar per series in each group, with an
    /// optional 95% interval per bar.
    Bars {
        groups: Vec<String>,
        /// Per series: its name, and per group the value and its interval.
        series: Vec<(String, Vec<(f64, f64)>)>,
    },
    /// Lines over a numeric x.
    Lines {
        x_range: std::ops::Range<f64>,
        series: Vec<(String, Vec<(f64, f64)>)>,
    },
}

/// A y range holding every value (and zero) with a margin.
fn range_of(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.08).max(1e-9);
    (if lo < 0.0 { lo - pad } else { 0.0 })..(hi + pad)
}

/// "Which seat wins, and where?": chips won per deal by seat and stage.
fn chips_chart(s: &Summary) -> Chart {
    let mut groups = vec!["total".to_owned()];
    groups.extend(Stage::ALL.iter().map(|st| st.key().replace('_', " ")));
    let series: Vec<(String, Vec<(f64, f64)>)> = s
        .seats
        .iter()
        .map(|seat| {
            let mut values = vec![(
                seat.chips.chips_per_deal.mean,
                seat.chips.chips_per_deal.ci95,
            )];
            values.extend(seat.chips.by_stage.values().map(|e| (e.mean, e.ci95)));
            (format!("seat {} ({})", seat.seat, seat.bot), values)
        })
        .collect();
    let y_range = range_of(
        series
            .iter()
            .flat_map(|(_, v)| v.iter().flat_map(|&(m, ci)| [m - ci, m + ci])),
    );
    Chart {
        title: format!(
            "Chips won per deal, by seat and stage ({} deals, 95% intervals)",
            thousands(s.deals)
        ),
        y_label: "chips won per deal (negative: lost)".into(),
        x_label: "stage".into(),
        y_range,
        body: Body::Bars { groups, series },
    }
}

/// "How much is each space worth?": chips on it as a deal begins, and
/// chips it pays out per deal.
fn spaces_chart(s: &Summary) -> Chart {
    let groups = s
        .spaces
        .iter()
        .map(|sp| sp.space.replace('_', " "))
        .collect();
    let series = vec![
        (
            "chips on it as a deal begins".to_owned(),
            s.spaces.iter().map(|sp| (sp.average_size, 0.0)).collect(),
        ),
        (
            "chips it pays out per deal".to_owned(),
            s.spaces
                .iter()
                .map(|sp| (sp.claim_rate * sp.average_payout, 0.0))
                .collect(),
        ),
    ];
    let y_range = range_of(
        s.spaces
            .iter()
            .flat_map(|sp| [sp.average_size, sp.claim_rate * sp.average_payout]),
    );
    Chart {
        title: format!(
            "What each layout space holds and pays, on average over {} deals",
            thousands(s.deals)
        ),
        y_label: "chips".into(),
        x_label: "layout space".into(),
        y_range,
        body: Body::Bars { groups, series },
    }
}

/// "When a space pays, how much?": the share of its payouts of each size,
/// up to the size that covers 99% of them (the rest is said). The five
/// pay-card spaces pay alike and are pooled; the pot (poker's, many times
/// larger) is left to `spaces.png`.
fn payouts_chart(s: &Summary) -> Chart {
    let mut series: Vec<(String, std::collections::BTreeMap<u32, u64>)> = Vec::new();
    for sp in s.spaces.iter().filter(|sp| sp.space != "pot") {
        let pay_card = ["ace", "king", "queen", "jack", "ten"].contains(&sp.space);
        let name = if pay_card {
            "ace, king, queen, jack, ten".to_owned()
        } else {
            sp.space.replace('_', " ")
        };
        let slot = series
            .iter()
            .position(|(n, _)| *n == name)
            .unwrap_or_else(|| {
                series.push((name, std::collections::BTreeMap::new()));
                series.len() - 1
            });
        for (&p, &n) in &sp.payouts {
            *series[slot].1.entry(p).or_default() += n;
        }
    }
    let mut all: Vec<(u32, u64)> = series
        .iter()
        .flat_map(|(_, m)| m.iter().map(|(&p, &n)| (p, n)))
        .collect();
    all.sort_unstable();
    let total: u64 = all.iter().map(|x| x.1).sum();
    let mut seen = 0;
    let mut cut = 1;
    for &(p, n) in &all {
        seen += n;
        cut = p;
        if seen * 100 >= total * 99 {
            break;
        }
    }
    let beyond: u64 = all.iter().filter(|x| x.0 > cut).map(|x| x.1).sum();
    let series: Vec<(String, Vec<(f64, f64)>)> = series
        .into_iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(name, m)| {
            let n: u64 = m.values().sum();
            let pts = m
                .iter()
                .filter(|(p, _)| **p <= cut)
                .map(|(&p, &c)| (f64::from(p), 100.0 * c as f64 / n as f64))
                .collect();
            (name, pts)
        })
        .collect();
    let y_range = range_of(series.iter().flat_map(|(_, v)| v.iter().map(|p| p.1)));
    let x_label = if beyond > 0 {
        let share = 100.0 * beyond as f64 / total.max(1) as f64;
        let decimals = if share < 0.1 { 2 } else { 1 };
        format!("chips paid ({share:.decimals$}% of payouts, above {cut} chips, not shown)")
    } else {
        "chips paid".to_owned()
    };
    Chart {
        title: format!(
            "How much a layout space pays when claimed ({} payouts{})",
            thousands(total),
            if s.spaces.iter().any(|sp| sp.space == "pot") {
                "; the pot is in spaces.png"
            } else {
                ""
            }
        ),
        y_label: "share of that space's payouts (%)".into(),
        x_label,
        y_range,
        body: Body::Lines {
            x_range: 0.0..f64::from(cut) + 1.0,
            series,
        },
    }
}

/// Draws a chart.
fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &Chart,
) -> io::Result<()>
where
    DB::ErrorType: 'static,
{
    area.fill(&WHITE).map_err(err)?;
    let (title_area, plot_area) = area.split_vertically(44);
    title_area
        .titled(&chart.title, ("sans-serif", 20))
        .map_err(err)?;
    let x_range = match &chart.body {
        Body::Bars { groups, .. } => -0.5..groups.len() as f64 - 0.5,
        Body::Lines { x_range, .. } => x_range.clone(),
    };
    let mut c = ChartBuilder::on(&plot_area)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range, chart.y_range.clone())
        .map_err(err)?;
    let y_span = chart.y_range.end - chart.y_range.start;
    let y_fmt = |v: &f64| {
        if y_span >= 20.0 {
            format!("{v:.0}")
        } else if y_span >= 2.0 {
            format!("{v:.1}")
        } else {
            format!("{v:.2}")
        }
    };
    match &chart.body {
        Body::Bars { groups, series } => {
            let x_fmt = |v: &f64| {
                groups
                    .iter()
                    .enumerate()
                    .find(|(j, _)| (*j as f64 - v).abs() < 1e-6)
                    .map(|(_, g)| g.clone())
                    .unwrap_or_default()
            };
            c.configure_mesh()
                .disable_x_mesh()
                .x_labels(groups.len())
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&y_fmt)
                .x_desc(&chart.x_label)
                .y_desc(&chart.y_label)
                .draw()
                .map_err(err)?;
            draw_bars(&mut c, groups, series)?;
        }
        Body::Lines { series, .. } => {
            c.configure_mesh()
                .x_label_formatter(&|v: &f64| format!("{v:.0}"))
                .y_label_formatter(&y_fmt)
                .x_desc(&chart.x_label)
                .y_desc(&chart.y_label)
                .draw()
                .map_err(err)?;
            for (k, (name, pts)) in series.iter().enumerate() {
                let colour = COLOURS[k % COLOURS.len()];
                // Spaces that pay alike lie on top of each other: every
                // series also gets its own marker, offset a little.
                let shift = (k as f64 - series.len() as f64 / 2.0) * 0.06;
                let pts: Vec<(f64, f64)> = pts.iter().map(|&(x, y)| (x + shift, y)).collect();
                c.draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                    .map_err(err)?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3))
                    });
                // Marker k: circle, triangle, cross, square, in turn.
                let fill = colour.filled();
                match k % 4 {
                    0 => c.draw_series(pts.iter().map(|&p| Circle::new(p, 3, fill))),
                    1 => c.draw_series(pts.iter().map(|&p| TriangleMarker::new(p, 4, fill))),
                    2 => c.draw_series(
                        pts.iter()
                            .map(|&p| Cross::new(p, 4, colour.stroke_width(2))),
                    ),
                    _ => {
                        c.draw_series(pts.iter().map(|&p| {
                            EmptyElement::at(p) + Rectangle::new([(-3, -3), (3, 3)], fill)
                        }))
                    }
                }
                .map_err(err)?;
            }
        }
    }
    c.configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    area.present().map_err(err)
}

/// The bars of a [`Body::Bars`] chart, their intervals and the zero line.
fn draw_bars<DB: DrawingBackend>(
    c: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    groups: &[String],
    series: &[(String, Vec<(f64, f64)>)],
) -> io::Result<()>
where
    DB::ErrorType: 'static,
{
    let width = 0.8 / series.len().max(1) as f64;
    for (k, (name, values)) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let left = |g: usize| g as f64 - 0.4 + width * k as f64;
        c.draw_series(values.iter().enumerate().map(|(g, &(v, _))| {
            Rectangle::new(
                [(left(g), 0.0), (left(g) + width * 0.9, v)],
                colour.filled(),
            )
        }))
        .map_err(err)?
        .label(name.as_str())
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        c.draw_series(
            values
                .iter()
                .enumerate()
                .filter(|(_, p)| p.1 > 0.0)
                .map(|(g, &(v, ci))| {
                    ErrorBar::new_vertical(
                        left(g) + width * 0.45,
                        v - ci,
                        v,
                        v + ci,
                        BLACK.stroke_width(1),
                        6,
                    )
                }),
        )
        .map_err(err)?;
    }
    c.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 0.0), (groups.len() as f64 - 0.5, 0.0)],
        BLACK.stroke_width(1),
    )))
    .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use tripoley_bots::sim::{SimConfig, simulate};
    use tripoley_bots::{BotKind, BotOptions};
    use tripoley_engine::{Preset, Rules};

    use super::*;

    fn summary(preset: Preset, deals: u64) -> Summary {
        let config = SimConfig {
            rules: Rules::preset(preset),
            bots: vec![
                BotKind::Heuristic.into(),
                BotKind::Random.into(),
                BotKind::Random.into(),
            ],
            options: BotOptions::default(),
            deals,
            seed: 3,
            series_deals: 100,
            save_records: None,
        };
        simulate(&config, &|_| {}).unwrap()
    }

    fn values(chart: &Chart) -> Vec<f64> {
        match &chart.body {
            Body::Bars { series, .. } => series
                .iter()
                .flat_map(|(_, v)| v.iter().flat_map(|&(m, ci)| [m - ci, m + ci]))
                .collect(),
            Body::Lines { series, .. } => series
                .iter()
                .flat_map(|(_, v)| v.iter().map(|p| p.1))
                .collect(),
        }
    }

    #[test]
    fn every_plot_shows_all_its_data_and_says_how_many_deals() {
        for preset in [Preset::Pagat, Preset::Cosmo] {
            let s = summary(preset, 2000);
            for chart in [chips_chart(&s), spaces_chart(&s), payouts_chart(&s)] {
                let vs = values(&chart);
                assert!(!vs.is_empty(), "{}", chart.title);
                for v in vs {
                    assert!(
                        chart.y_range.contains(&v),
                        "{v} outside {:?}: {}",
                        chart.y_range,
                        chart.title
                    );
                }
                // The data fill the range: no squeezing into a corner.
                let top = values(&chart).into_iter().fold(f64::MIN, f64::max);
                assert!(top > 0.8 * chart.y_range.end, "{}", chart.title);
            }
            assert!(chips_chart(&s).title.contains("2,000 deals"));
            assert!(spaces_chart(&s).title.contains("2,000 deals"));
            if let Body::Bars { series, .. } = chips_chart(&s).body {
                assert_eq!(series.len(), 3, "one bar per seat");
            }
        }
    }

    #[test]
    fn the_payout_plot_covers_99_percent_and_says_what_it_leaves_out() {
        let s = summary(Preset::Pagat, 3000);
        let chart = payouts_chart(&s);
        let Body::Lines { x_range, series } = &chart.body else {
            panic!("lines")
        };
        let shown: f64 = series
            .iter()
            .map(|(_, v)| v.iter().map(|p| p.1).sum::<f64>())
            .sum();
        // Each series' shares sum to at most 100; together they cover 99%.
        assert!(shown >= 99.0 * series.len() as f64 * 0.9, "{shown}");
        let max_x = series
            .iter()
            .flat_map(|(_, v)| v.iter().map(|p| p.0))
            .fold(0.0, f64::max);
        assert!(max_x < x_range.end && x_range.end < 60.0, "{x_range:?}");
        assert!(!series.iter().any(|(n, _)| n == "pot"));
        assert!(chart.x_label.contains("not shown") || shown >= 99.9 * series.len() as f64);
    }
}
