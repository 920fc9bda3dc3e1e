//! The tools' descriptions and the server's instructions, generated from the policy file
//! (`Policy::builtin()`), so what a model is told can never drift from what the check
//! enforces. A model that reads them should write compliant code on the first attempt.

use python_runtime::pipeline::Limits;
use python_runtime::policy::Policy;
use std::fmt::Write as _;
use std::path::Path;

/// The rules for figure code, in the words a model needs: what to import, what is already
/// there, how to read data and how to save.
pub fn rules(policy: &Policy) -> String {
    let mut out = String::new();
    let modules: Vec<&str> = policy.module_names().collect();
    let _ = writeln!(
        out,
        "- Allowed imports (nothing else): {}.",
        modules.join(", ")
    );
    let pre: Vec<String> = policy
        .preimported
        .iter()
        .map(|p| format!("{} = {}", p.name, p.what))
        .collect();
    let _ = writeln!(out, "- Already imported: {}.", pre.join(", "));
    let prims: Vec<String> = policy
        .primitives
        .iter()
        .map(|p| format!("{} ({})", p.usage, p.what))
        .collect();
    let _ = writeln!(out, "- Provided: {}.", prims.join("; "));
    out.push_str(
        "- Read data by its path relative to the data folder (the code runs there): \
         pd.read_csv('data.csv'), loadmat('run.mat'), np.load('a.npy'), \
         np.loadtxt('runs/x.txt'); srcpath('data.csv') gives the absolute path.\n",
    );
    out.push_str(
        "- Save the figure with plt.savefig(OUT) (its format is chosen by the call). Code \
         written otherwise works too: images saved with savefig/imsave under any name are the \
         figures (several per run, in order), and without any save the figures open at \
         plt.show() or at the end are. At most 16 figures; nothing but figures is kept.\n",
    );
    let builtins: Vec<&str> = policy
        .forbidden_builtins
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    let _ = writeln!(out, "- Forbidden builtins: {}.", builtins.join(", "));
    let names: Vec<&str> = policy
        .blocked_names
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    let _ = writeln!(out, "- Forbidden modules and names: {}.", names.join(", "));
    let restricted: Vec<String> = policy
        .restricted_modules
        .iter()
        .map(|r| format!("{}.{{{}}}", r.path, r.names.join(", ")))
        .collect();
    let _ = writeln!(
        out,
        "- Of os and io only these pure names may be used, written out: {}.",
        restricted.join("; ")
    );
    let apis: Vec<String> = policy
        .dangerous_apis
        .iter()
        .map(|a| format!("{} (instead: {})", a.name, a.instead))
        .collect();
    let _ = writeln!(out, "- Forbidden calls: {}.", apis.join("; "));
    out.push_str(
        "- Example data sets come from the data folder: sns.load_dataset('tips') reads tips.csv \
         there (no cache=/data_home=, no download).\n",
    );
    out.push_str(
        "- No dunder attributes (obj.__class__ etc.), no URLs, no network, no files other than \
         reading SRC; the data folder is read-only.",
    );
    out
}

pub fn make_figure(policy: &Policy, figures: &Path, limits: &Limits) -> String {
    format!(
        "Make one figure from the user's local data by running Python plotting code. The code \
         is checked first (a static allowlist) and then runs confined (no network, data folder \
         read-only); the figure is saved as {figures}/NAME.png (NAME-2.png, ... for more \
         figures; .svg/.pdf with format svg or pdf). The result describes every figure as \
         text — size, each axes' title, labels, limits and what is drawn — with WARNINGS a \
         careful reviewer would raise (an empty axes, a series with no finite data, data \
         outside the axis limits, a log axis over values <= 0, many lines without a legend, \
         panels without labels, text cut off at the edge, a blank image): read them even if \
         you cannot see images, fix what they name and call again. It also attaches a small \
         preview image per figure (unless preview = none) and a link to the full file. If \
         the code is rejected or fails, the result is an error that names every problem with \
         its line and column and says what to write instead: fix the code and call again. \
         Call list_data and describe_data first to learn the files, columns and variables.\n\
         Arguments: name = the figure's file stem (letters, digits, _ - .; e.g. field_sweep); \
         code = the complete Python script; format = png (default), svg or pdf; preview = \
         inline (default) or none (text and links only, for models that cannot see images).\n\
         Rules for the code:\n{rules}\n\
         Limits: {secs} s, {mem} MB of memory per run.\n\
         Example:\n  df = pd.read_csv('data.csv')  # after `import pandas as pd`\n  \
         plt.plot(df['x'], df['y']); plt.xlabel('x'); plt.savefig(OUT)",
        figures = figures.display(),
        rules = rules(policy),
        secs = limits.timeout.as_secs(),
        mem = limits.memory_bytes >> 20,
    )
}

pub fn list_data() -> String {
    format!(
        "List the data files in the user's data folder (SRC) as paths relative to it, with \
         their sizes in bytes: exactly the paths load('...') and srcpath('...') take in \
         make_figure code. Optional argument sub = a sub-folder (relative, no '..') to list \
         only that part. At most {} entries, {} folder levels down; links that point outside \
         the folder (or nowhere) are listed as refused and cannot be read; names starting \
         with '.' are counted, not listed.",
        python_runtime::pipeline::data::listing::MAX_ENTRIES,
        python_runtime::pipeline::data::listing::MAX_DEPTH,
    )
}

pub fn describe_data() -> String {
    "Describe one data file so figure code can be written without guessing, and say how to \
     read it (load('path') gives the natural object; the call is named): CSV/TSV/text \
     tables → separator, header, columns, inferred types, row count and the first rows \
     (exactly as load() reads them); Excel .xlsx → sheets, then the first sheet as a table; \
     MATLAB .mat (v5 and v7.3/HDF5) → variable names, shapes, classes and dtypes; \
     .npy/.npz → shapes, dtypes and first values (pickled data is refused, never loaded); \
     JSON → the top-level keys, types and lengths; HDF5 .h5 → datasets; images → format, \
     size in pixels and mode. Argument path = a file path relative to the data folder, as \
     list_data shows. The file is read by a fixed script in the same confined worker as \
     figure code."
        .to_owned()
}

pub fn list_figures() -> String {
    "List the figures made in the figures folder: each file with the name it was made under, \
     when, the data files it was drawn from, and whether it is stale (a data file changed or \
     is gone since), and how many earlier versions of its name are kept (make_figure with an \
     existing name keeps the old figure as a version). Every figure carries its code and \
     data-file hashes inside the file. \
     Arguments: code = true to also get each figure's code back (to redraw a stale one with \
     make_figure); name = only the figures of that name."
        .to_owned()
}

pub fn instructions(src: &Path, figures: &Path) -> String {
    format!(
        "PDFAgent plots the user's local data offline. Data folder (SRC, read-only): {}. \
         Figures are saved in: {}. Workflow: list_data → describe_data on the files you need → \
         make_figure with code that follows the rules in its description; on an error, fix \
         exactly what it names and call make_figure again. list_figures shows what was made \
         earlier and which figures are stale.",
        src.display(),
        figures.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_figure_text_carries_every_rule_from_the_policy() {
        let policy = Policy::builtin();
        let text = make_figure(policy, Path::new("/figs"), &Limits::default());
        for module in policy.module_names() {
            assert!(text.contains(module), "{module} missing");
        }
        for needle in [
            "np = numpy",
            "plt = matplotlib.pyplot",
            "loadmat",
            "srcpath('file')",
            "listdir(sub='')",
            "walkfiles()",
            "SRC",
            "plt.savefig(OUT)",
            "/figs/NAME.png",
            "open",
            "eval",
            "subprocess",
            "os.path.{join, basename",
            "io.{BytesIO, StringIO}",
            "sns.load_dataset('tips') reads tips.csv",
        ] {
            assert!(text.contains(needle), "{needle} missing:\n{text}");
        }
    }
}
