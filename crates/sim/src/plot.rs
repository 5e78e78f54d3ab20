//! Plots as SVG text, drawn by hand (no plotting crate for three kinds of chart): histograms, and
//! rates with their confidence intervals.

use std::fmt::Write;

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
const COLOURS: [&str; 3] = ["#35588f", "#a8432f", "#7a756a"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn frame(title: &str, x_label: &str, y_label: &str, body: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" font-family="Georgia, serif" font-size="12">
<rect width="{W}" height="{H}" fill="#fbf8f1"/>
<text x="{cx}" y="22" text-anchor="middle" font-size="15">{t}</text>
<text x="{cx}" y="{xl}" text-anchor="middle" fill="#555">{x}</text>
<text x="16" y="{cy}" text-anchor="middle" fill="#555" transform="rotate(-90 16 {cy})">{y}</text>
<line x1="{LEFT}" y1="{base}" x2="{right}" y2="{base}" stroke="#333"/>
<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}" stroke="#333"/>
{body}</svg>
"##,
        cx = W / 2.0,
        cy = (TOP + H - BOTTOM) / 2.0,
        xl = H - 12.0,
        base = H - BOTTOM,
        right = W - RIGHT,
        t = esc(title),
        x = esc(x_label),
        y = esc(y_label),
    );
    s
}

/// A histogram of each series' `counts` over equal bins from `lo` to `hi`, series side by side.
pub fn histogram(title: &str, x_label: &str, lo: f64, hi: f64, series: &[(&str, Vec<u64>)]) -> String {
    let bins = series.iter().map(|(_, c)| c.len()).max().unwrap_or(1).max(1);
    let top = series.iter().flat_map(|(_, c)| c.iter().copied()).max().unwrap_or(1).max(1) as f64;
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let bw = pw / bins as f64;
    let mut body = String::new();
    for (k, (name, counts)) in series.iter().enumerate() {
        let sw = bw / series.len().max(1) as f64;
        for (i, &c) in counts.iter().enumerate() {
            let h = ph * c as f64 / top;
            let _ = writeln!(
                body,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}" fill-opacity="0.85"><title>{}: {c}</title></rect>"#,
                LEFT + bw * i as f64 + sw * k as f64,
                TOP + ph - h,
                (sw - 1.0).max(0.5),
                h,
                COLOURS[k % COLOURS.len()],
                esc(name)
            );
        }
        let _ = writeln!(
            body,
            r#"<text x="{:.1}" y="{:.1}" fill="{}">{}</text>"#,
            W - RIGHT - 150.0,
            TOP + 14.0 * (k as f64 + 1.0),
            COLOURS[k % COLOURS.len()],
            esc(name)
        );
    }
    for t in 0..=4 {
        let v = lo + (hi - lo) * f64::from(t) / 4.0;
        let x = LEFT + pw * f64::from(t) / 4.0;
        let _ = writeln!(body, r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{v:.0}</text>"#, H - BOTTOM + 16.0);
    }
    let _ = writeln!(body, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{top:.0}</text>"#, LEFT - 6.0, TOP + 4.0);
    let _ = writeln!(body, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">0</text>"#, LEFT - 6.0, H - BOTTOM);
    frame(title, x_label, "battles", &body)
}

/// Rates (0 to 1) with their 95% intervals, as bars with whiskers.
pub fn rates(title: &str, bars: &[(&str, f64, [f64; 2])]) -> String {
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let bw = pw / bars.len().max(1) as f64;
    let y = |v: f64| TOP + ph * (1.0 - v.clamp(0.0, 1.0));
    let mut body = String::new();
    for (i, (name, rate, [lo, hi])) in bars.iter().enumerate() {
        let x = LEFT + bw * i as f64 + bw * 0.2;
        let w = bw * 0.6;
        let _ = writeln!(
            body,
            r#"<rect x="{x:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{}" fill-opacity="0.85"><title>{}: {:.1}% ({:.1}–{:.1}%)</title></rect>"#,
            y(*rate),
            y(0.0) - y(*rate),
            COLOURS[i % COLOURS.len()],
            esc(name),
            rate * 100.0,
            lo * 100.0,
            hi * 100.0
        );
        let cx = x + w / 2.0;
        let _ = writeln!(
            body,
            r##"<line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="#222" stroke-width="1.5"/>"##,
            y(*lo),
            y(*hi)
        );
        for v in [lo, hi] {
            let _ = writeln!(
                body,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#222"/>"##,
                cx - 6.0,
                y(*v),
                cx + 6.0,
                y(*v)
            );
        }
        let _ = writeln!(
            body,
            r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            H - BOTTOM + 16.0,
            esc(name)
        );
        let _ = writeln!(
            body,
            r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle">{:.0}%</text>"#,
            y(*hi) - 6.0,
            rate * 100.0
        );
    }
    for t in [0.0, 0.5, 1.0] {
        let _ = writeln!(
            body,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{:.0}%</text>"#,
            LEFT - 6.0,
            y(t) + 4.0,
            t * 100.0
        );
    }
    frame(title, "", "share of battles (95% interval)", &body)
}
