//! CSV files and plots of a simulation (plotters: SVG always, PNG when a
//! TrueType font is found on the system for the labels).

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use plotters::prelude::*;
use tripoley_bots::sim::Summary;

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

/// Writes `deals.csv`, `seats.csv`, `spaces.csv`, `payouts.csv` and the plots.
pub fn write_all(dir: &Path, s: &Summary) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    write_csvs(dir, s)?;
    let png = register_font();
    for name in ["chips", "spaces", "payouts"] {
        draw(
            &SVGBackend::new(&dir.join(format!("{name}.svg")), (900, 540)).into_drawing_area(),
            name,
            s,
        )?;
        if png {
            draw(
                &BitMapBackend::new(&dir.join(format!("{name}.png")), (900, 540))
                    .into_drawing_area(),
                name,
                s,
            )?;
        }
    }
    if !png {
        eprintln!("note: no TrueType font found for PNG labels; wrote SVG plots only");
    }
    Ok(())
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

/// One chart: cumulative chips per seat, space sizes, or payout distributions.
fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    which: &str,
    s: &Summary,
) -> io::Result<()>
where
    DB::ErrorType: 'static,
{
    area.fill(&WHITE).map_err(err)?;
    let n = s.series.len().max(1) as f64;
    let lines: Vec<(String, Vec<(f64, f64)>)> = match which {
        "chips" => (0..s.players)
            .map(|seat| {
                let mut acc = 0.0;
                let pts = s.series.iter().map(|r| {
                    acc += r.won[seat] as f64;
                    (r.deal as f64, acc)
                });
                (
                    format!("seat {seat} ({})", s.seats[seat].bot),
                    pts.collect(),
                )
            })
            .collect(),
        "spaces" => s
            .spaces
            .iter()
            .enumerate()
            .map(|(i, sp)| {
                (
                    sp.space.to_owned(),
                    s.series
                        .iter()
                        .map(|r| (r.deal as f64, f64::from(r.spaces[i])))
                        .collect(),
                )
            })
            .collect(),
        _ => s
            .spaces
            .iter()
            .filter(|sp| !sp.payouts.is_empty())
            .map(|sp| {
                let total: u64 = sp.payouts.values().sum();
                (
                    sp.space.to_owned(),
                    sp.payouts
                        .iter()
                        .map(|(&p, &c)| (f64::from(p), c as f64 / total as f64))
                        .collect(),
                )
            })
            .collect(),
    };
    let (title, x_label, y_label) = match which {
        "chips" => ("Chips won over deals (cumulative)", "deal", "chips"),
        "spaces" => ("Chips on each space as a deal begins", "deal", "chips"),
        _ => (
            "Payout distribution per space",
            "chips paid",
            "share of payouts",
        ),
    };
    let xs = lines.iter().flat_map(|l| l.1.iter().map(|p| p.0));
    let ys: Vec<f64> = lines.iter().flat_map(|l| l.1.iter().map(|p| p.1)).collect();
    let x_max = xs.fold(if which == "payouts" { 1.0 } else { n }, f64::max);
    let y_min = ys.iter().copied().fold(0.0, f64::min);
    let y_max = ys.iter().copied().fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max, y_min..y_max * 1.05)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(err)?;
    for (i, (name, pts)) in lines.into_iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    area.present().map_err(err)
}
