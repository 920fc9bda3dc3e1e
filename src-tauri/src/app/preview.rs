//! File previews, computed by the confined worker running a fixed script of ours: the data
//! file is parsed by Python with the same read-only view of the folder the user's code gets,
//! never by the window process. Images are not parsed at all: their bytes go to the webview.

use python_runtime::confine::{ConfinePlan, Limits};
use python_runtime::pipeline::script::py_str_literal;
use python_runtime::runner::{self, CancelFlag, WorkerExit, WorkerRequest};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// The marker in front of the one JSON line the preview script prints.
const MARKER: &str = "PDFAGENT-PREVIEW ";
const TIMEOUT: Duration = Duration::from_secs(60);

/// What kind of preview a file gets, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Table,
    Mat,
    Npy,
    Json,
    Image,
    None,
}

impl Kind {
    pub fn of(path: &Path) -> Kind {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        match ext.as_str() {
            "csv" | "tsv" | "txt" | "dat" => Kind::Table,
            "mat" => Kind::Mat,
            "npy" => Kind::Npy,
            "json" => Kind::Json,
            "png" | "jpg" | "jpeg" | "gif" | "webp" | "bmp" => Kind::Image,
            _ => Kind::None,
        }
    }

    fn script_name(self) -> &'static str {
        match self {
            Kind::Table => "table",
            Kind::Mat => "mat",
            Kind::Npy => "npy",
            Kind::Json => "json",
            Kind::Image | Kind::None => "none",
        }
    }
}

/// Preview `file` (inside `src`, already validated) with the confined worker.
pub fn preview(src: &Path, file: &Path, kind: Kind) -> Result<Value, String> {
    let file_text = file.to_str().ok_or_else(|| {
        format!(
            "`{}` is not a UTF-8 path and cannot be previewed",
            file.display()
        )
    })?;
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("could not tell where this executable is: {e}"))?;
    let exe_dir = exe.parent().unwrap_or(Path::new("/"));
    let runtime = python_runtime::locate::runtime_dir().map_err(|e| e.to_string())?;
    let run = tempfile::Builder::new()
        .prefix("pdfagent-preview-")
        .tempdir()
        .map_err(|e| format!("could not create a run directory for the preview: {e}"))?;
    let run_dir = run
        .path()
        .canonicalize()
        .map_err(|e| format!("could not resolve the preview's run directory: {e}"))?;
    let script = run_dir.join("preview.py");
    let text = format!(
        "PATH = {}\nKIND = {}\n{}",
        py_str_literal(file_text),
        py_str_literal(kind.script_name()),
        SCRIPT
    );
    std::fs::write(&script, text)
        .map_err(|e| format!("could not write the preview script: {e}"))?;
    let request = WorkerRequest {
        script,
        run_dir: run_dir.clone(),
        confine: ConfinePlan::for_run(
            exe_dir,
            &runtime,
            Some(src),
            &run_dir,
            Limits {
                memory_bytes: 2 << 30,
                cpu_seconds: 120,
                file_size_bytes: 16 << 20,
            },
        ),
        timeout: TIMEOUT,
        output_cap: 1 << 20,
    };
    let cancel = CancelFlag::default();
    let outcome = runner::run_worker(&request, &cancel).map_err(|e| e.to_string())?;
    if let Some(line) = outcome
        .stdout_tail
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(MARKER))
    {
        return serde_json::from_str(line)
            .map_err(|e| format!("the preview could not be read: {e}"));
    }
    let why = match outcome.exit {
        WorkerExit::TimedOut => format!("it took longer than {} s", TIMEOUT.as_secs()),
        other => format!("the worker ended with {other:?}"),
    };
    let tail: String = outcome
        .stderr_tail
        .lines()
        .rev()
        .take(6)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    Err(format!("no preview: {why}\n{tail}"))
}

/// The fixed preview script (after the `PATH`/`KIND` lines). It prints one marked JSON line.
const SCRIPT: &str = r#"
import json

MAX_ROWS, MAX_COLS, MAX_CELL = 20, 30, 60


def emit(value):
    print("PDFAGENT-PREVIEW " + json.dumps(value, default=str))


def table():
    import csv
    with open(PATH, "r", encoding="utf-8", errors="replace", newline="") as f:
        sample = f.read(256 * 1024)
    lines = sample.splitlines()
    complete = len(sample) < 256 * 1024
    delim = "\t" if PATH.lower().endswith(".tsv") else ","
    try:
        delim = csv.Sniffer().sniff("\n".join(lines[:20]), delimiters=",;\t| ").delimiter
    except Exception:
        pass
    rows = []
    for row in csv.reader(lines[: MAX_ROWS + 1], delimiter=delim):
        rows.append([c[:MAX_CELL] for c in row[:MAX_COLS]])
    return {"kind": "table", "delimiter": delim, "rows": rows,
            "total_lines": len(lines) if complete else None}


def mat():
    import scipy.io
    try:
        data = scipy.io.loadmat(PATH)
    except NotImplementedError:
        return {"kind": "mat", "variables": [], "note": "MATLAB v7.3 (HDF5) file: not readable with scipy.io.loadmat"}
    out = []
    for name, value in data.items():
        if name.startswith("__"):
            continue
        out.append({"name": name, "shape": list(getattr(value, "shape", ())),
                    "dtype": str(getattr(value, "dtype", type(value).__name__))})
    return {"kind": "mat", "variables": out, "header": str(data.get("__header__", b""), "latin-1")[:120]}


def npy():
    import numpy
    arr = numpy.load(PATH, mmap_mode="r", allow_pickle=False)
    flat = arr.reshape(-1)[:8]
    return {"kind": "npy", "shape": list(arr.shape), "dtype": str(arr.dtype),
            "first": [str(v) for v in flat.tolist()]}


def outline(value, depth=0, key="(root)"):
    node = {"key": str(key)[:80], "type": type(value).__name__}
    if isinstance(value, dict):
        node["len"] = len(value)
        if depth < 3:
            node["children"] = [outline(v, depth + 1, k) for k, v in list(value.items())[:40]]
    elif isinstance(value, list):
        node["len"] = len(value)
        if depth < 3 and value:
            node["children"] = [outline(value[0], depth + 1, "[0]")]
    else:
        node["value"] = repr(value)[:80]
    return node


def js():
    import os
    if os.path.getsize(PATH) > 50 * 1024 * 1024:
        return {"kind": "json", "error": "over 50 MB: not outlined"}
    with open(PATH, "r", encoding="utf-8", errors="replace") as f:
        return {"kind": "json", "outline": outline(json.load(f))}


try:
    emit({"table": table, "mat": mat, "npy": npy, "json": js}[KIND]())
except Exception as e:
    emit({"kind": "error", "error": f"{type(e).__name__}: {e}"})
"#;
