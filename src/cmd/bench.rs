//! `linkup bench planner`: greedy play and the planner on many random deals, timed one deal
//! at a time on one thread.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::board::Board;
use crate::deal::{Fill, deal};
use crate::planner::{self, Budget, Verdict};
use crate::solver::{Rules, greedy_plan};

/// Arguments of `linkup bench`.
#[derive(Debug, clap::Args)]
pub struct Bench {
    /// What to measure.
    #[command(subcommand)]
    pub target: Target,
}

/// The things `linkup bench` can measure.
#[derive(Debug, clap::Subcommand)]
pub enum Target {
    /// Greedy play and the full-board planner on random deals.
    Planner(PlannerArgs),
}

/// Arguments of `linkup bench planner`.
#[derive(Debug, clap::Args)]
pub struct PlannerArgs {
    /// How many deals.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub deals: u64,
    /// Seed of the first deal; deal `i` uses `seed + i`.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Board size, ROWSxCOLS.
    #[arg(long, default_value = "8x18", value_name = "ROWSxCOLS")]
    pub size: String,
    /// How the board is filled before the shuffle: xshisen or kshisen.
    #[arg(long, default_value = "xshisen", value_name = "FILL")]
    pub fill: Fill,
    /// Tiles fall down their column after each removal.
    #[arg(long)]
    pub gravity: bool,
    /// Paths may not run around the outside of the board (the border is on by default).
    #[arg(long)]
    pub no_border: bool,
    /// Most turns a path may make.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub max_turns: u8,
    /// Most search nodes per deal for the planner.
    #[arg(long, default_value_t = Budget::DEFAULT_NODES, value_name = "NODES")]
    pub budget: u64,
    /// Most milliseconds per deal for the planner; 0 for no time limit.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub time_ms: u64,
    /// Also print one line per deal: seed, greedy and planner verdicts, nodes, milliseconds.
    #[arg(long)]
    pub per_deal: bool,
    /// Only the deals whose seeds are listed in this file (the first number on each line),
    /// e.g. the unknown lines of an earlier `--per-deal` run.
    #[arg(long, value_name = "FILE")]
    pub seeds_from: Option<std::path::PathBuf>,
}

/// Parses `ROWSxCOLS`.
fn parse_size(text: &str) -> anyhow::Result<(usize, usize)> {
    let (rows, cols) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("size `{text}` is not ROWSxCOLS, e.g. 8x18"))?;
    let rows: usize = rows
        .parse()
        .with_context(|| format!("size `{text}`: rows are not a number"))?;
    let cols: usize = cols
        .parse()
        .with_context(|| format!("size `{text}`: columns are not a number"))?;
    if rows == 0 || cols == 0 {
        bail!("size `{text}`: rows and columns must be at least 1");
    }
    Ok((rows, cols))
}

/// Per-solver tallies.
#[derive(Default)]
struct Tally {
    cleared: usize,
    unwinnable: usize,
    unknown: usize,
    times: Vec<Duration>,
    nodes: Vec<u64>,
}

/// The value at quantile `q` of `sorted` by nearest rank; the default when empty.
fn quantile<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    crate::stats::quantile(sorted, q).unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// Runs `linkup bench`.
pub fn run(bench: Bench) -> anyhow::Result<ExitCode> {
    match bench.target {
        Target::Planner(args) => run_planner(args),
    }
}

fn run_planner(args: PlannerArgs) -> anyhow::Result<ExitCode> {
    let (rows, cols) = parse_size(&args.size)?;
    let rules = Rules {
        max_turns: args.max_turns,
        border: !args.no_border,
        gravity: args.gravity,
    };
    let budget = Budget {
        nodes: args.budget,
        time: (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms)),
    };
    let seeds = seeds(&args)?;
    let (mut greedy, mut planned) = (Tally::default(), Tally::default());
    for &seed in &seeds {
        let board = deal(rows, cols, args.fill, seed);
        let greedy_cleared = greedy.add_greedy(&board, rules);
        let (verdict, nodes) = planned.add_planner(&board, rules, budget);
        if args.per_deal {
            outln!(
                "{seed} greedy {} planner {} nodes {nodes} ms {:.3}",
                if greedy_cleared { "cleared" } else { "stuck" },
                verdict_name(verdict),
                planned.times.last().expect("just timed").as_secs_f64() * 1e3,
            )?;
        }
    }
    outln!(
        "{rows}x{cols} {:?} fill, border {}, gravity {}, max turns {}: {} deals from seed {}, \
         planner budget {} nodes and {} ms",
        args.fill,
        if rules.border { "on" } else { "off" },
        if rules.gravity { "on" } else { "off" },
        rules.max_turns,
        seeds.len(),
        seeds.first().copied().unwrap_or(args.seed),
        args.budget,
        args.time_ms
    )?;
    greedy.print("greedy", seeds.len(), false)?;
    planned.print("planner", seeds.len(), true)?;
    Ok(ExitCode::SUCCESS)
}

/// The seeds of the deals: from `--seeds-from`, or `--deals` seeds from `--seed` on.
fn seeds(args: &PlannerArgs) -> anyhow::Result<Vec<u64>> {
    Ok(match &args.seeds_from {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading seeds from {}", path.display()))?;
            text.lines()
                .filter_map(|line| line.split_whitespace().next()?.parse().ok())
                .collect()
        }
        None => (0..args.deals).map(|i| args.seed.wrapping_add(i)).collect(),
    })
}

/// The word `--per-deal` prints for a verdict.
fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Cleared => "cleared",
        Verdict::Unwinnable => "unwinnable",
        Verdict::Unknown => "unknown",
    }
}

impl Tally {
    /// Times greedy play on `board` and counts it; whether it cleared the board.
    fn add_greedy(&mut self, board: &Board, rules: Rules) -> bool {
        let start = Instant::now();
        let cleared = greedy_plan(board, rules).is_cleared();
        self.times.push(start.elapsed());
        self.cleared += usize::from(cleared);
        cleared
    }

    /// Times the planner on `board` and counts its verdict; the verdict and the nodes.
    fn add_planner(&mut self, board: &Board, rules: Rules, budget: Budget) -> (Verdict, u64) {
        let start = Instant::now();
        let outcome = planner::plan(board, rules, budget);
        self.times.push(start.elapsed());
        self.nodes.push(outcome.stats.nodes);
        let verdict = outcome.verdict();
        match verdict {
            Verdict::Cleared => self.cleared += 1,
            Verdict::Unwinnable => self.unwinnable += 1,
            Verdict::Unknown => self.unknown += 1,
        }
        (verdict, outcome.stats.nodes)
    }

    /// Prints the summary line of `deals` deals (with the node counts and verdicts when
    /// `search`).
    fn print(&mut self, name: &str, deals: usize, search: bool) -> anyhow::Result<()> {
        self.times.sort_unstable();
        self.nodes.sort_unstable();
        let pct = |n: usize| 100.0 * n as f64 / deals.max(1) as f64;
        out!(
            "{name:<8} cleared {} ({:.1}%)  time median {}  p95 {}  max {}",
            self.cleared,
            pct(self.cleared),
            ms(quantile(&self.times, 0.5)),
            ms(quantile(&self.times, 0.95)),
            ms(self.times.last().copied().unwrap_or_default()),
        )?;
        if search {
            let open = deals - self.unwinnable;
            out!(
                "  nodes median {} p95 {} max {}  proven unwinnable {} ({:.1}%)  \
                 budget ran out {}  cleared/not-proven-unwinnable {:.2}%",
                quantile(&self.nodes, 0.5),
                quantile(&self.nodes, 0.95),
                self.nodes.last().copied().unwrap_or_default(),
                self.unwinnable,
                pct(self.unwinnable),
                self.unknown,
                100.0 * self.cleared as f64 / open.max(1) as f64,
            )?;
        }
        outln!()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_bad_ones_explain() {
        assert_eq!(parse_size("8x18").unwrap(), (8, 18));
        assert_eq!(parse_size("12X24").unwrap(), (12, 24));
        assert_eq!(
            format!("{:#}", parse_size("8-18").unwrap_err()),
            "size `8-18` is not ROWSxCOLS, e.g. 8x18"
        );
        assert!(parse_size("0x4").is_err());
    }

    #[test]
    fn quantiles_use_nearest_rank() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(quantile(&v, 0.5), 5);
        assert_eq!(quantile(&v, 0.95), 10);
        assert_eq!(quantile::<u32>(&[], 0.5), 0);
    }
}
