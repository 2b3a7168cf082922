//! `linkup plan BOARD.txt`: the clearing sequence for a board given as text, by greedy play or
//! (with `--planner`) by the full-board planner.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::board::Board;
use crate::planner::{self, Budget};
use crate::solver::{Rules, greedy_plan};

/// Arguments of `linkup plan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board: one row per line, kinds separated by spaces, 0 = empty, `#` comments.
    pub board: PathBuf,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Print JSON: {"moves":[{"a":[r,c],"b":[r,c],"path":[[r,c],...]}],"result":..,"left":N}.
    #[arg(long)]
    pub json: bool,
    /// Search for a complete clearing sequence instead of playing greedily.
    #[arg(long)]
    pub planner: bool,
    /// Most search nodes for `--planner`.
    #[arg(long, default_value_t = Budget::DEFAULT_NODES, value_name = "NODES", requires = "planner")]
    pub budget: u64,
    /// Most milliseconds for `--planner`; 0 for no time limit (a node can take milliseconds on
    /// a large board with more than two turns, so the node budget alone may take hours).
    #[arg(
        long,
        default_value_t = 10_000,
        value_name = "MS",
        requires = "planner"
    )]
    pub time_ms: u64,
}

/// The rule options shared by the commands that solve boards.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct RuleArgs {
    /// Keep paths on the board: no running through the ring just outside it (the Shisen-Sho
    /// rule, on by default as in the game profiles).
    #[arg(long)]
    pub no_border: bool,
    /// Most turns a path may make.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub max_turns: u8,
    /// Tiles fall down their column after each removal.
    #[arg(long)]
    pub gravity: bool,
}

impl RuleArgs {
    /// The rules these options describe.
    pub fn rules(self) -> Rules {
        Rules {
            max_turns: self.max_turns,
            border: !self.no_border,
            gravity: self.gravity,
        }
    }
}

/// Reads a board text file, naming the file in any error.
pub fn load_board(path: &std::path::Path) -> anyhow::Result<Board> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the board file {}", path.display()))?;
    text.parse::<Board>().with_context(|| {
        format!(
            "{} is not a board (one row per line, kinds separated by spaces, 0 = empty)",
            path.display()
        )
    })
}

/// Runs `linkup plan`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let board = load_board(&args.board)?;
    let rules = args.rules.rules();
    let plan = if args.planner {
        let budget = Budget {
            nodes: args.budget,
            time: (args.time_ms > 0).then(|| std::time::Duration::from_millis(args.time_ms)),
        };
        let outcome = planner::plan(&board, rules, budget);
        if let Some(reason) = outcome.stats.unsearchable {
            eprintln!("planner: {reason}");
        } else if !args.json && !outcome.plan.is_cleared() {
            let verdict = if outcome.stats.exhausted {
                "proven unwinnable"
            } else {
                "budget ran out"
            };
            eprintln!(
                "planner: {verdict} after {} nodes; showing the longest partial plan",
                outcome.stats.nodes
            );
        }
        outcome.plan
    } else {
        greedy_plan(&board, rules)
    };
    if args.json {
        outln!("{}", serde_json::to_string(&plan)?)?;
    } else {
        out!("{plan}")?;
    }
    Ok(ExitCode::SUCCESS)
}
