//! The benchmark behind `scripts/bench`: the warm worker, the cold worker and a seed-style
//! baseline (`python -I` with the same pre-imports, see `scripts/bench-seed-baseline.py`),
//! measured pair by pair in one run, printed as a markdown table.
//!
//! This binary is its own worker (it honours `PDFAGENT_PYRUN` first thing, as `pdfagent`
//! does), so the warm and cold paths run exactly the engine the app runs.
//!
//! Run through `scripts/bench`; by hand:
//! `cargo run --release -p python-runtime --example bench -- --seed-python python3.11 \
//!    --seed-script scripts/bench-seed-baseline.py --pdfagent target/release/pdfagent`

use python_runtime::CancelFlag;
use python_runtime::WarmPool;
use python_runtime::check;
use python_runtime::{FigureRequest, FigureResult, Limits, make_figure};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The standard plot: one file, also what `scripts/bench-mcp` sends over MCP.
const STANDARD: &str = include_str!("../../scripts/bench-standard-plot.py");

const LINE_2M: &str = "\
x = np.linspace(0, 100, 2_000_000)
plt.plot(x, np.sin(x) * np.exp(-x / 50), linewidth=0.5)
plt.xlabel('x')
plt.ylabel('y')
plt.title('2 million points')
plt.savefig(OUT)
";

const SURFACE: &str = "\
fig = plt.figure()
ax = fig.add_subplot(projection='3d')
X, Y = np.meshgrid(np.linspace(-3, 3, 150), np.linspace(-3, 3, 150))
Z = np.sin(np.sqrt(X ** 2 + Y ** 2))
ax.plot_surface(X, Y, Z, cmap='viridis')
ax.set_title('3-D surface 150x150')
plt.savefig(OUT)
";

const CSV: &str = "\
import pandas as pd
df = pd.read_csv(srcpath('big.csv'))
smooth = df['v'].rolling(500).mean()
plt.plot(df['t'], df['v'], linewidth=0.3, alpha=0.5)
plt.plot(df['t'], smooth)
plt.xlabel('t')
plt.ylabel('v')
plt.title('pandas CSV, 100k rows')
plt.savefig(OUT)
";

const READY: Duration = Duration::from_secs(120);

struct Args {
    runs: usize,
    heavy_runs: usize,
    throughput: usize,
    seed_python: String,
    seed_script: PathBuf,
    pdfagent: Option<PathBuf>,
    /// Figures submitted at once for the side-by-side measure.
    parallel: usize,
    /// A stock install of the runtime's locked packages: when given, each run also measures
    /// the seed as the article designed it (`--design article`, see the seed script).
    seed_site: Option<PathBuf>,
    /// Another build of the executable (laid out with its own runtime beside it): its
    /// `make-figure` is measured in every run too, for a before/after table.
    pdfagent_before: Option<PathBuf>,
}

fn main() {
    if let Some(code) = python_runtime::run_if_requested() {
        std::process::exit(code);
    }
    if std::env::args().nth(1).as_deref() == Some("--rss") {
        std::process::exit(rss_child());
    }
    match run() {
        Ok(table) => println!("{table}"),
        Err(err) => {
            eprintln!("bench: {err}");
            std::process::exit(1);
        }
    }
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        runs: 10,
        heavy_runs: 5,
        throughput: 20,
        seed_python: "python3.11".into(),
        seed_script: PathBuf::from("scripts/bench-seed-baseline.py"),
        pdfagent: None,
        parallel: 8,
        seed_site: None,
        pdfagent_before: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<usize>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            "--runs" => args.runs = number(value()?)?,
            "--heavy-runs" => args.heavy_runs = number(value()?)?,
            "--throughput" => args.throughput = number(value()?)?,
            "--seed-python" => args.seed_python = value()?,
            "--seed-script" => args.seed_script = value()?.into(),
            "--pdfagent" => args.pdfagent = Some(value()?.into()),
            "--parallel" => args.parallel = number(value()?)?,
            "--seed-site" => args.seed_site = Some(value()?.into()),
            "--pdfagent-before" => args.pdfagent_before = Some(value()?.into()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(args)
}

struct Bench {
    _tmp: tempfile::TempDir,
    src: PathBuf,
    figures: PathBuf,
    codes: PathBuf,
}

impl Bench {
    fn new() -> Result<Bench, String> {
        let tmp = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
        let root = tmp.path().canonicalize().map_err(|e| e.to_string())?;
        let src = root.join("src");
        let figures = root.join("figures");
        let codes = root.join("codes");
        for d in [&src, &figures, &codes] {
            std::fs::create_dir_all(d).map_err(|e| format!("`{}`: {e}", d.display()))?;
        }
        let mut csv = String::from("t,v,g\n");
        for i in 0..100_000u32 {
            let t = f64::from(i) * 0.01;
            csv.push_str(&format!(
                "{t:.2},{:.5},{}\n",
                (t * 0.7).sin() + (t * 3.1).cos() * 0.2,
                i % 7
            ));
        }
        std::fs::write(src.join("big.csv"), csv).map_err(|e| e.to_string())?;
        Ok(Bench {
            _tmp: tmp,
            src,
            figures,
            codes,
        })
    }

    fn request(&self, name: &str, code: &str) -> FigureRequest {
        FigureRequest {
            name: name.into(),
            code: code.as_bytes().to_vec(),
            src: self.src.clone(),
            figures: self.figures.clone(),
            format: Default::default(),
            limits: Limits::default(),
            preview: false,
        }
    }
}

fn ok(result: FigureResult, what: &str) -> Result<(), String> {
    if result.ok {
        Ok(())
    } else {
        Err(format!("{what} failed: {}", result.to_json()))
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// One submit → PNG-on-disk measurement of each kind, per run.
#[derive(Default)]
struct Triple {
    warm: Vec<f64>,
    cold: Vec<f64>,
    seed: Vec<f64>,
    /// The shipped executable's `make-figure`, a process per figure (with `--pdfagent`).
    cli: Vec<f64>,
    /// The seed as the article designed it (with `--seed-site`).
    designed: Vec<f64>,
    /// The other build's `make-figure` (with `--pdfagent-before`).
    cli_before: Vec<f64>,
}

fn measure_case(
    bench: &Bench,
    pool: &WarmPool,
    args: &Args,
    label: &str,
    code: &str,
    runs: usize,
) -> Result<Triple, String> {
    let cancel = CancelFlag::default();
    let mut t = Triple::default();
    let code_file = bench.codes.join(format!("{label}.py"));
    std::fs::write(&code_file, code).map_err(|e| e.to_string())?;
    for i in 0..runs {
        // Every measurement starts with a warm worker idle and ready, so nothing else in
        // this process competes for the CPU while it runs.
        if !pool.wait_ready(READY) {
            return Err("the warm worker did not become ready".into());
        }
        let s = Instant::now();
        ok(
            pool.submit(
                &bench.request(&format!("{label}-w{i}"), code),
                &cancel,
                &|_| {},
            ),
            "warm",
        )?;
        t.warm.push(ms(s.elapsed()));
        if !pool.wait_ready(READY) {
            return Err("the replacement warm worker did not become ready".into());
        }
        let s = Instant::now();
        ok(
            make_figure(
                &bench.request(&format!("{label}-c{i}"), code),
                &cancel,
                &|_| {},
            ),
            "cold",
        )?;
        t.cold.push(ms(s.elapsed()));
        for (exe, times, tag) in [
            (&args.pdfagent, &mut t.cli, "m"),
            (&args.pdfagent_before, &mut t.cli_before, "b"),
        ] {
            if let Some(exe) = exe {
                times.push(cli_run(
                    bench,
                    exe,
                    &code_file,
                    &format!("{label}-{tag}{i}"),
                )?);
            }
        }
        t.seed.push(seed_run(
            bench,
            args,
            &code_file,
            &format!("{label}-s{i}"),
            None,
        )?);
        if let Some(site) = &args.seed_site {
            t.designed.push(seed_run(
                bench,
                args,
                &code_file,
                &format!("{label}-d{i}"),
                Some(site),
            )?);
        }
        eprintln!(
            "bench: {label} run {}: warm {:.0} ms, cold {:.0} ms, make-figure {} ms, seed {:.0} \
             ms, seed as designed {} ms",
            i + 1,
            t.warm[i],
            t.cold[i],
            t.cli.get(i).map_or("-".into(), |v| format!("{v:.0}")),
            t.seed[i],
            t.designed.get(i).map_or("-".into(), |v| format!("{v:.0}")),
        );
    }
    Ok(t)
}

/// One cold figure through the shipped executable, as a user or script runs it: a process
/// per figure, timed from its start until it has exited with the figure kept.
fn cli_run(bench: &Bench, pdfagent: &Path, code: &Path, name: &str) -> Result<f64, String> {
    let s = Instant::now();
    let output = Command::new(pdfagent)
        .arg("make-figure")
        .arg("--src")
        .arg(&bench.src)
        .arg("--name")
        .arg(name)
        .arg("--code")
        .arg(code)
        .arg("--figures")
        .arg(&bench.figures)
        .arg("--json")
        .output()
        .map_err(|e| format!("could not start `{}`: {e}", pdfagent.display()))?;
    let took = ms(s.elapsed());
    if !output.status.success() || !bench.figures.join(format!("{name}.png")).is_file() {
        return Err(format!(
            "`pdfagent make-figure` failed: {}",
            String::from_utf8_lossy(&output.stdout)
        ));
    }
    Ok(took)
}

/// One seed-style run; the reference script times it itself (its own start-up excluded).
/// `designed_site`: the seed as the article designed it, on that stock install; otherwise
/// the shared variant (the runtime's packages and PDFAgent's preamble).
fn seed_run(
    bench: &Bench,
    args: &Args,
    code: &Path,
    name: &str,
    designed_site: Option<&Path>,
) -> Result<f64, String> {
    let out = bench.figures.join(format!("{name}.png"));
    let mut command = Command::new(&args.seed_python);
    command
        .arg(&args.seed_script)
        .arg("--src")
        .arg(&bench.src)
        .arg("--code")
        .arg(code)
        .arg("--out")
        .arg(&out);
    if let Some(site) = designed_site {
        command
            .arg("--design")
            .arg("article")
            .arg("--site")
            .arg(site);
    }
    let output = command
        .output()
        .map_err(|e| format!("could not start `{}`: {e}", args.seed_python))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let v: serde_json::Value = serde_json::from_str(text.trim()).map_err(|e| {
        format!(
            "seed baseline printed no result ({e}): {text} {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    if v["ok"] != true || !out.is_file() {
        return Err(format!("seed baseline failed: {v}"));
    }
    v["ms"]
        .as_f64()
        .ok_or(format!("seed baseline: no ms in {v}"))
}

fn ratios(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x / y).collect()
}

fn case_row(label: &str, t: &Triple) -> String {
    let optional = |values: &[f64], digits: usize| {
        if values.is_empty() {
            "—".to_owned()
        } else {
            format!("{:.*}", digits, median(values))
        }
    };
    let ratio = |a: &[f64], b: &[f64]| {
        if a.is_empty() || b.is_empty() {
            "—".to_owned()
        } else {
            format!("{:.2}×", median(&ratios(a, b)))
        }
    };
    format!(
        "| {label} | {} | {:.0} | {:.0} | {} | {:.0} | {} | {:.3}× | {:.2}× | {} | {} |",
        t.warm.len(),
        median(&t.warm),
        median(&t.cold),
        optional(&t.cli, 0),
        median(&t.seed),
        optional(&t.designed, 0),
        median(&ratios(&t.warm, &t.seed)),
        median(&ratios(&t.cold, &t.seed)),
        ratio(&t.cli, &t.seed),
        ratio(&t.cli, &t.designed),
    )
}

/// The standard plot's `make-figure`, this build and the other one (`--pdfagent-before`),
/// against both seeds, measured in the same runs.
fn before_after_rows(t: &Triple) -> String {
    if t.cli_before.is_empty() || t.cli.is_empty() {
        return String::new();
    }
    let mut rows = String::from(
        "| standard plot, `pdfagent make-figure` (ms, median) | before | now | now ÷ before |\n\
         | --- | ---: | ---: | ---: |\n",
    );
    rows.push_str(&format!(
        "| a process per figure | {:.0} | {:.0} | {:.2}× |\n",
        median(&t.cli_before),
        median(&t.cli),
        median(&ratios(&t.cli, &t.cli_before)),
    ));
    for (name, seed) in [("seed-style", &t.seed), ("seed as designed", &t.designed)] {
        if !seed.is_empty() {
            rows.push_str(&format!(
                "| ÷ {name} | {:.2}× | {:.2}× | |\n",
                median(&ratios(&t.cli_before, seed)),
                median(&ratios(&t.cli, seed)),
            ));
        }
    }
    rows.push('\n');
    rows
}

fn run() -> Result<String, String> {
    let args = parse_args()?;
    let bench = Bench::new()?;
    let pool = WarmPool::new();
    pool.prepare(&bench.src, &bench.figures, &Limits::default())
        .map_err(|e| e.to_string())?;
    let mut md = String::new();
    md.push_str(
        "| submit → PNG on disk (ms, median) | runs | warm | cold | `make-figure` | seed-style | \
         seed as designed | warm ÷ seed | cold ÷ seed | `make-figure` ÷ seed | `make-figure` ÷ \
         seed as designed |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let cases = [
        (
            "standard plot (1,000-point line, labels)",
            "standard",
            STANDARD,
            args.runs,
        ),
        ("2 million points", "line2m", LINE_2M, args.heavy_runs),
        (
            "3-D surface (150 × 150)",
            "surface",
            SURFACE,
            args.heavy_runs,
        ),
        ("pandas CSV, 100k rows", "csv", CSV, args.heavy_runs),
    ];
    let mut standard_warm = None;
    let mut before_after = String::new();
    for (title, label, code, runs) in cases {
        let t = measure_case(&bench, &pool, &args, label, code, runs)?;
        md.push_str(&case_row(title, &t));
        md.push('\n');
        if label == "standard" {
            standard_warm = Some(median(&t.warm));
            before_after = before_after_rows(&t);
        }
    }
    md.push_str(&format!(
        "\nRatios are medians of the per-run ratios (all kinds measured one after the other in \
         each run). warm: the pool's fork server; cold: the engine's `make_figure` in this \
         process; `make-figure`: the shipped executable, a process per figure; seed-style: the \
         shared variant (PDFAgent's runtime and preamble); seed as designed: the article's \
         wrapper on a stock install (scripts/bench-seed-baseline.py). Heavy cases: {} runs \
         each.\n\n",
        args.heavy_runs
    ));
    md.push_str(&before_after);

    // Throughput: N figures back to back, each submitted as soon as the last returned.
    let n = args.throughput;
    let cancel = CancelFlag::default();
    if !pool.wait_ready(READY) {
        return Err("the warm worker did not become ready".into());
    }
    let s = Instant::now();
    for i in 0..n {
        ok(
            pool.submit(
                &bench.request(&format!("tw{i}"), STANDARD),
                &cancel,
                &|_| {},
            ),
            "warm",
        )?;
    }
    let warm_total = s.elapsed();
    pool.wait_ready(READY);
    let s = Instant::now();
    for i in 0..n {
        ok(
            make_figure(
                &bench.request(&format!("tc{i}"), STANDARD),
                &cancel,
                &|_| {},
            ),
            "cold",
        )?;
    }
    let cold_total = s.elapsed();
    eprintln!("bench: throughput warm {warm_total:?}, cold {cold_total:?}");

    // Side by side: P figures submitted at once (as an agent or "re-run all" does), wall
    // time, and the memory of the warm process and its children while they run.
    let p = args.parallel;
    if !pool.wait_ready(READY) {
        return Err("the warm worker did not become ready".into());
    }
    let pool = std::sync::Arc::new(pool);
    let server = pool.warm_pid();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = std::sync::Arc::clone(&done);
        std::thread::spawn(move || {
            let mut peak = (0u64, 0u64);
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                if let Some(server) = server {
                    let now = tree_memory_kib(server);
                    peak = (peak.0.max(now.0), peak.1.max(now.1));
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    };
    let s = Instant::now();
    let runs: Vec<_> = (0..p)
        .map(|i| {
            let pool = std::sync::Arc::clone(&pool);
            let req = bench.request(&format!("par{i}"), STANDARD);
            std::thread::spawn(move || pool.submit(&req, &CancelFlag::default(), &|_| {}))
        })
        .collect();
    for run in runs {
        ok(
            run.join().map_err(|_| "a submitting thread panicked")?,
            "parallel",
        )?;
    }
    let parallel_total = s.elapsed();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let (peak_rss, peak_pss) = sampler.join().map_err(|_| "the memory sampler panicked")?;
    eprintln!("bench: {p} at once {parallel_total:?}, peak rss {peak_rss} KiB pss {peak_pss} KiB");

    let mut other = String::from("| measure | value |\n| --- | ---: |\n");
    other.push_str(&format!(
        "| {n} standard figures back to back, warm | {:.1} s ({:.0} ms/figure) |\n",
        warm_total.as_secs_f64(),
        ms(warm_total) / n as f64
    ));
    other.push_str(&format!(
        "| {n} standard figures back to back, cold | {:.1} s ({:.0} ms/figure) |\n",
        cold_total.as_secs_f64(),
        ms(cold_total) / n as f64
    ));
    other.push_str(&format!(
        "| throughput warm ÷ cold | {:.2}× |\n",
        warm_total.as_secs_f64() / cold_total.as_secs_f64()
    ));
    other.push_str(&format!(
        "| {p} standard figures submitted at once, warm: wall time | {:.2} s ({:.0} ms/figure; \
         {:.2}× the {n} cold ones back to back, per figure) |\n",
        parallel_total.as_secs_f64(),
        ms(parallel_total) / p as f64,
        (parallel_total.as_secs_f64() / p as f64) / (cold_total.as_secs_f64() / n as f64)
    ));
    other.push_str(&format!(
        "| peak memory of the warm process and its children while {p} run at once | \
         {:.0} MiB PSS ({:.0} MiB RSS summed, shared pages counted per process) |\n",
        peak_pss as f64 / 1024.0,
        peak_rss as f64 / 1024.0
    ));
    drop(pool);

    if let Some(pdfagent) = &args.pdfagent {
        let mut times = vec![];
        for _ in 0..3 {
            let s = Instant::now();
            let out = Command::new(pdfagent)
                .arg("selftest")
                .output()
                .map_err(|e| format!("could not start `{}`: {e}", pdfagent.display()))?;
            times.push(s.elapsed().as_secs_f64());
            if !out.status.success() {
                return Err(format!(
                    "`pdfagent selftest` failed: {}",
                    String::from_utf8_lossy(&out.stdout)
                ));
            }
        }
        eprintln!("bench: selftest {times:?}");
        other.push_str(&format!(
            "| `pdfagent selftest` wall time (median of 3) | {:.2} s |\n",
            median(&times)
        ));
    }

    let script = five_thousand_lines();
    let mut times = vec![];
    for _ in 0..10 {
        let s = Instant::now();
        check(script.as_bytes())
            .map_err(|r| format!("the 5,000-line script was rejected: {:?}", r.errors.first()))?;
        times.push(ms(s.elapsed()));
    }
    other.push_str(&format!(
        "| Layer-1 check, 5,000-line script (median of 10) | {:.1} ms |\n",
        median(&times)
    ));

    if let Some(warm) = standard_warm {
        let report = report_ms(&bench)?;
        other.push_str(&format!(
            "| figure report on the standard plot (median of 30, in the worker) | {report:.2} ms \
             = {:.1} % of the warm figure ({warm:.0} ms) |\n",
            100.0 * report / warm
        ));
    }

    for mode in ["cold", "warm"] {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let out = Command::new(exe)
            .args(["--rss", mode])
            .output()
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stdout);
        let kib: u64 = text.trim().parse().map_err(|e| {
            format!(
                "rss child ({mode}): {e}: {text} {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
        other.push_str(&format!(
            "| worker peak RSS, standard plot, {mode} | {:.0} MiB |\n",
            kib as f64 / 1024.0
        ));
    }
    Ok(format!("{md}{other}"))
}

/// Times the figure report (`figure_report.py`) inside a real worker on the very figure the
/// standard plot draws: the code is the standard plot followed by a timing loop, run
/// unchecked the way the security suites run code (it reaches the report function through
/// the worker's globals, which Layer 1 would refuse). Median of 30 calls, in ms.
fn report_ms(bench: &Bench) -> Result<f64, String> {
    const TIMER: &str = "\nimport time\n\
        report = plt.show.__globals__['_pdfagent_figure_report']\n\
        fig = plt.gcf()\n\
        rgba = np.asarray(fig.canvas.buffer_rgba())\n\
        times = []\n\
        for _ in range(30):\n\
        \x20   t = time.perf_counter()\n\
        \x20   report(fig, rgba=rgba)\n\
        \x20   times.append((time.perf_counter() - t) * 1000)\n\
        print('REPORT_MS', sorted(times)[15], flush=True)\n";
    let run = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let code = format!("{STANDARD}{TIMER}");
    let prepared = python_runtime::prepared::prepare_unchecked_run(
        &bench.src,
        run.path(),
        &code,
        &Limits::default(),
        true,
    )
    .map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new(exe)
        .env_clear()
        .envs(&prepared.env)
        .current_dir(&prepared.run_dir)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("REPORT_MS "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| {
            format!(
                "the report timing run printed no time: {text} {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
}

/// The resident and proportional set sizes (KiB) of `pid` and its children, summed.
fn tree_memory_kib(pid: u32) -> (u64, u64) {
    let children =
        std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    let field = |text: &str, name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    std::iter::once(pid)
        .chain(children.split_whitespace().filter_map(|c| c.parse().ok()))
        .map(|p| {
            let rollup =
                std::fs::read_to_string(format!("/proc/{p}/smaps_rollup")).unwrap_or_default();
            (field(&rollup, "Rss:"), field(&rollup, "Pss:"))
        })
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// `--rss cold|warm`: make one standard figure, then print the largest peak RSS (KiB) of
/// the workers this process started and reaped (getrusage RUSAGE_CHILDREN).
fn rss_child() -> i32 {
    let mode = std::env::args().nth(2).unwrap_or_default();
    let result = (|| -> Result<(), String> {
        let bench = Bench::new()?;
        let cancel = CancelFlag::default();
        let req = bench.request("rss", STANDARD);
        if mode == "warm" {
            let pool = WarmPool::new();
            pool.prepare(&bench.src, &bench.figures, &Limits::default())
                .map_err(|e| e.to_string())?;
            if !pool.wait_ready(READY) {
                return Err("no warm worker".into());
            }
            ok(pool.submit(&req, &cancel, &|_| {}), "warm")?;
            // The replacement is killed before it warms up (its peak would be lower anyway).
            pool.discard();
        } else {
            ok(make_figure(&req, &cancel, &|_| {}), "cold")?;
        }
        Ok(())
    })();
    if let Err(err) = result {
        eprintln!("bench --rss: {err}");
        return 1;
    }
    match max_child_rss_kib() {
        Some(kib) => {
            println!("{kib}");
            0
        }
        None => 1,
    }
}

#[cfg(unix)]
fn max_child_rss_kib() -> Option<i64> {
    // SAFETY: a zeroed rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the live struct it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return None;
    }
    #[allow(clippy::useless_conversion)] // c_long is i32 on 32-bit targets
    Some(i64::from(usage.ru_maxrss))
}

#[cfg(not(unix))]
fn max_child_rss_kib() -> Option<i64> {
    eprintln!("bench --rss: peak RSS is measured on Unix only");
    None
}

/// A 5,000-line plotting script that passes Layer 1.
fn five_thousand_lines() -> String {
    let block = [
        "x{i} = np.linspace(0, {i}, 100)",
        "y{i} = np.sin(x{i}) * {i} + np.cos(x{i} / 2)",
        "if {i} % 2 == 0:",
        "    y{i} = y{i} ** 2",
        "for k in range(3):",
        "    y{i} = y{i} + k",
        "label{i} = f'series {{k}} of {i}'",
        "plt.plot(x{i}, y{i}, label=label{i})",
        "values{i} = [v * 2 for v in range({i} % 10)]",
        "plt.xlabel('x {i}')",
    ];
    let mut s = String::new();
    for i in 0..500 {
        for line in block {
            s.push_str(&line.replace("{i}", &i.to_string()).replace("{{k}}", "{k}"));
            s.push('\n');
        }
    }
    s
}
