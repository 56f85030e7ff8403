//! `millbase plan --emit snakemake`: the solving plan as a Snakemake workflow, one job per
//! component of the sector graph (docs/CLUSTER.md).

use crate::cli::common::changed_rules;
use millbase::plan::{Estimate, PlanEntry};
use millbase::sectors::Sector;
use millbase::{NMoveRule, Variant};
use std::fmt::Write as _;
use std::path::Path;

/// What the emitted workflow runs, besides the plan itself.
pub struct WorkflowOptions<'a> {
    /// The millbase program the jobs run (an absolute path; `--config millbase=...` overrides).
    pub program: &'a Path,
    /// The table directory (`--config dir=...` overrides).
    pub dir: &'a Path,
    /// Passed to every job.
    pub rule: NMoveRule,
    /// Passed to every job.
    pub skip_unreachable: bool,
    /// Threads of a job whose component is estimated to take 10 s or more (others take 1).
    pub threads: usize,
    /// The command line that wrote the workflow, for its header.
    pub command: String,
}

/// Memory asked for a job: the plan's estimate with a fifth more, plus the program itself.
fn mem_mb(x: &Estimate) -> u64 {
    (x.memory * 1.2 / 1048576.0).ceil() as u64 + 256
}

/// Run time asked for a job, minutes: four times the plan's estimate (slower nodes, loaded
/// machines, writing), at least 10.
fn runtime_minutes(x: &Estimate) -> u64 {
    ((x.seconds * 4.0 / 60.0).ceil() as u64).max(10)
}

/// A Snakemake rule name for a component.
fn rule_name(first: Sector) -> String {
    format!("solve_{}", first.file_stem().replace('-', "_"))
}

/// A Python string literal.
fn py(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// `tables("a", "b")`: the call that lists the table files of these sectors.
fn tables_call(sectors: &[Sector]) -> String {
    let names: Vec<String> = sectors.iter().map(|s| py(&s.file_stem())).collect();
    format!("tables({})", names.join(", "))
}

/// The Snakefile for `entries` (a plan, in solving order) with their estimates.
pub fn snakefile(
    v: &Variant,
    entries: &[PlanEntry],
    estimates: &[Estimate],
    o: &WorkflowOptions,
) -> String {
    let mut t = String::new();
    let sectors: usize = entries.iter().map(|e| e.component.sectors().len()).sum();
    let positions: u64 = entries.iter().flat_map(|e| e.positions.iter()).sum();
    let mut options = String::new();
    if o.rule.is_active() {
        let _ = write!(options, " --n-move-rule {}", o.rule.n());
    }
    if o.skip_unreachable {
        options.push_str(" --skip-unreachable");
    }
    for rule in changed_rules(v) {
        let _ = write!(options, " --rule {rule}");
    }
    let _ = write!(
        t,
        r#"# Snakemake workflow: millbase solves {variant} ({components} components, {sectors} sectors,
# {positions} positions up to symmetry{rule}).
# Written by: {command}
# (millbase {version}). Each component of the sector graph is one job: its table files are
# its outputs, the tables of the sectors it reads are its inputs, so a job starts once its
# dependencies are solved. Jobs run `millbase generate --no-deps`, which solves exactly one
# component, refuses to start without its dependencies, and locks the component so that
# workers sharing the directory never solve it twice.
#
# Run it here:             snakemake --cores 2
# Or on a Slurm cluster:   snakemake --executor slurm --jobs 100 --latency-wait 60
#                          (snakemake-executor-plugin-slurm; see docs/CLUSTER.md)
# Options:                 --config millbase=/path/to/millbase dir=/path/to/tables
#
# Resources come from `millbase plan`'s estimates for 2 cores: threads, mem_mb (estimated
# peak with a fifth more, plus 256 MB) and runtime (minutes: four times the estimate, at
# least 10). A job whose mem_mb is set below what its component needs keeps the solver's
# cells in a scratch file (generate --max-memory) instead of running out of memory. Each job's log is logs/{variant}/<sector>.log (with millbase's own measured
# peak memory); Snakemake's measurements (max_rss, seconds) go to benchmarks/{variant}/.

MILLBASE = config.get("millbase", {program})
DIR = config.get("dir", {dir})


def tables(*sectors):
    """The table files (WDL and distance) of these sectors in DIR."""
    return [f"{{DIR}}/{{s}}.{{ext}}" for s in sectors for ext in ("mbw", "mbd")]


localrules: all

"#,
        variant = v.label(),
        components = entries.len(),
        rule = if o.rule.is_active() {
            format!(", {}", o.rule)
        } else {
            String::new()
        },
        command = o.command,
        version = env!("CARGO_PKG_VERSION"),
        program = py(&o.program.to_string_lossy()),
        dir = py(&o.dir.to_string_lossy()),
    );
    let _ = writeln!(t, "rule all:\n    input:");
    for e in entries {
        let _ = writeln!(t, "        {},", tables_call(e.component.sectors()));
    }
    for (e, x) in entries.iter().zip(estimates) {
        let first = e.component.first();
        let stem = first.file_stem();
        let threads = if x.seconds >= 10.0 { o.threads } else { 1 };
        let _ = write!(
            t,
            r#"

rule {name}:
    input: {inputs}
    output: {outputs}
    threads: {threads}
    resources: mem_mb={mem}, runtime={runtime}
    log: "logs/{label}/{stem}.log"
    benchmark: "benchmarks/{label}/{stem}.tsv"
    shell: "RAYON_NUM_THREADS={{threads}} {{MILLBASE:q}} generate --no-deps --quiet --variant {variant} --dir {{DIR:q}} --max-memory {{resources.mem_mb}}{options} {stem} > {{log:q}} 2>&1"
"#,
            name = rule_name(first),
            inputs = tables_call(e.component.dependencies()),
            outputs = tables_call(e.component.sectors()),
            mem = mem_mb(x),
            runtime = runtime_minutes(x),
            variant = v.name,
            label = v.label(),
        );
    }
    t
}
