//! Sukaku Explainer's solving path as `grade` takes it: one line per step,
//! `rating|technique` with the cell placed or the candidates removed, then
//! `ER/EP/ED`, the layout of `serate --after='%r|%s' --format='%r/%p/%d'`, so that the
//! two paths can be compared line by line to find the first step where they part.
//! `level3` leaves out the nested chains of level 4; `BUDGET=n` sets
//! the rater's budget. With `SHOW=n`, the board before step n goes to standard error,
//! first as the 729-character pencilmark line serate reads, then as a grid of
//! candidates. With `FORCE=n:r2c5.1,m:r4c8.9`, step n removes candidate 1 of r2c5 instead
//! of the rater's hint (and so on), to follow `serate`'s path past a step that differs.
//!
//! ```sh
//! cargo run --release --example se_steps -- PUZZLE [bank|se121|level3]
//! ```

use sudoku_batch::engines::explainer::{Pencilmarks, Rater, Rules};
use sudoku_batch::Grid;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(grid) = args.first().and_then(|p| Grid::parse(p.as_bytes()).ok()) else {
        eprintln!("usage: se_steps PUZZLE [bank|se121|level3]");
        std::process::exit(2);
    };
    let mut rater = Rater::new();
    rater.rules = match args.get(1).map(String::as_str) {
        Some("bank") => Rules::BANK,
        Some("level3") => Rules::SUKAKU.without_level4(),
        Some("se121") => Rules::SE121,
        _ => Rules::SUKAKU,
    };
    if let Some(budget) = std::env::var("BUDGET").ok().and_then(|s| s.parse().ok()) {
        rater.budget = budget;
    }
    let mut b = Pencilmarks::new(&grid);
    let show: usize = std::env::var("SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut step = 0;
    while !b.is_full() {
        step += 1;
        if step == show {
            // The board as Sukaku Explainer's 729-character pencilmark line, so that
            // serate can be started from this step.
            let marks: String = (0..81)
                .flat_map(|i| {
                    let set = if b.value[i] != 0 {
                        1u16 << (b.value[i] - 1)
                    } else {
                        b.cands[i]
                    };
                    (0..9).map(move |v| {
                        if set >> v & 1 != 0 {
                            char::from(b'1' + v as u8)
                        } else {
                            '.'
                        }
                    })
                })
                .collect();
            eprintln!("{marks}");
            for r in 0..9 {
                let row: Vec<String> = (0..9)
                    .map(|c| {
                        let i = r * 9 + c;
                        if b.value[i] != 0 {
                            format!("{:>9}", format!("[{}]", b.value[i]))
                        } else {
                            let s: String = (0..9)
                                .filter(|v| b.cands[i] >> v & 1 != 0)
                                .map(|v| char::from(b'1' + v as u8))
                                .collect();
                            format!("{s:>9}")
                        }
                    })
                    .collect();
                eprintln!("{}", row.join(" "));
            }
        }
        if let Some(cands) = forced(step) {
            for (cell, v) in cands {
                b.cands[cell] &= !(1 << v);
                println!("forced|r{}c{}.{}", cell / 9 + 1, cell % 9 + 1, v + 1);
            }
            continue;
        }
        let Some(h) = rater.next_hint(&b) else {
            println!("(no step: at least {:.1})", rater.floor());
            break;
        };
        let name = |c: usize| format!("r{}c{}", c / 9 + 1, c % 9 + 1);
        let what = match h.place {
            Some((c, v)) => format!("{}: {v}", name(c as usize)),
            None => (0..81)
                .filter(|&c| h.elims[c] != 0)
                .map(|c| {
                    let vs: Vec<String> = (0..9)
                        .filter(|v| h.elims[c] >> v & 1 != 0)
                        .map(|v| (v + 1).to_string())
                        .collect();
                    format!("{}.{}", name(c), vs.join(","))
                })
                .collect::<Vec<_>>()
                .join(" "),
        };
        println!("{:.1}|{}: {what}", h.rating, h.technique.name());
        h.apply(&mut b);
    }
    let r = rater.rate(&grid);
    let t = |x: u16| format!("{}.{}", x / 10, x % 10);
    println!("{}/{}/{}", t(r.er), t(r.ep), t(r.ed));
}

/// The candidates `FORCE` removes at `step` as (cell, value bit), if any.
fn forced(step: usize) -> Option<Vec<(usize, usize)>> {
    let spec = std::env::var("FORCE").ok()?;
    let cands: Vec<(usize, usize)> = spec
        .split(',')
        .filter_map(|item| {
            let (n, what) = item.split_once(':')?;
            let b = what.as_bytes();
            if n.parse::<usize>().ok()? != step || b.len() != 6 || b[0] != b'r' || b[2] != b'c' {
                return None;
            }
            let digit = |i: usize| {
                (b[i] as usize)
                    .checked_sub(usize::from(b'1'))
                    .filter(|&d| d < 9)
            };
            Some((digit(1)? * 9 + digit(3)?, digit(5)?))
        })
        .collect();
    (!cands.is_empty()).then_some(cands)
}
