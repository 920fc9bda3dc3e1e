//! The tools' descriptions and the server's instructions, generated from the policy file
//! (`Policy::builtin()`), so what a model is told can never drift from what the check
//! enforces. A model that reads them should write compliant code on the first attempt.

use python_runtime::Limits;
use python_runtime::Policy;
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

/// Where a client reads the whole of [`rules`]: a resource and a prompt of this server.
pub const RULES_URI: &str = "pdfagent://rules";
pub const RULES_PROMPT: &str = "figure_rules";

/// The rules as the resource and the prompt give them: a heading, then [`rules`].
pub fn rules_document(policy: &Policy, limits: &Limits) -> String {
    format!(
        "# Rules for make_figure code\n\n\
         The code is checked by a static allowlist before it runs; a rejection names each \
         problem with its line and column and what to write instead.\n{rules}\n\
         - Limits: {secs} s, {mem} MB of memory per run.\n",
        rules = rules(policy),
        secs = limits.timeout.as_secs(),
        mem = limits.memory_bytes >> 20,
    )
}

/// The short form of the rules for the tool description: every allowed import and provided
/// name (what a first attempt needs), the rest by reference. Every tools/list costs a
/// model's context these characters, so the whole is in the resource and the prompt, and
/// each rejection repeats what applies (issue #41: descriptions ≤ 2,000 characters).
fn rules_summary(policy: &Policy) -> String {
    let modules: Vec<&str> = policy.module_names().collect();
    let pre: Vec<&str> = policy.preimported.iter().map(|p| p.name.as_str()).collect();
    let prims: Vec<&str> = policy.primitives.iter().map(|p| p.usage.as_str()).collect();
    format!(
        "Allowed imports: {}. Already imported: {}. Provided: {}. No open(), os, sys, \
         subprocess, network or dunder attributes. All rules: resource {RULES_URI} or prompt \
         {RULES_PROMPT}.",
        modules.join(", "),
        pre.join(", "),
        prims.join(", "),
    )
}

pub fn make_figure(policy: &Policy, limits: &Limits) -> String {
    format!(
        "Run Python plotting code on the user's local data and save the figure(s) in the \
         figures folder. The code runs in the data folder (read-only): read files by relative \
         path (pd.read_csv('data.csv'), load('run.mat')); save with plt.savefig(OUT). \
         {summary} Limits: {secs} s, {mem} MB. \
         A rejected or failed run returns an error naming the line and the fix: correct it \
         and call again. The result describes each figure in text (axes, data, WARNINGS to \
         fix), with a small preview image and a link to the file. Call list_data and \
         describe_data first.",
        summary = rules_summary(policy),
        secs = limits.timeout.as_secs(),
        mem = limits.memory_bytes >> 20,
    )
}

pub fn list_data() -> String {
    format!(
        "List the data folder's files (paths relative to it, sizes in bytes), as make_figure \
         code reads them. At most {} entries, {} levels deep; links leading outside are shown \
         as refused.",
        python_runtime::listing::MAX_ENTRIES,
        python_runtime::listing::MAX_DEPTH,
    )
}

pub fn describe_data() -> String {
    "Describe one data file and how to read it: a table's columns, types and first rows; \
     .mat/.npz/.h5 variables with shapes and dtypes; JSON keys; image size. Read by a fixed \
     confined script."
        .to_owned()
}

pub fn list_figures() -> String {
    "List the figures made: name, time, the data files drawn from, whether stale (data \
     changed since) and earlier versions kept; code=true returns each figure's code."
        .to_owned()
}

pub fn instructions(src: &Path, figures: &Path) -> String {
    format!(
        "PDFAgent plots the user's local data offline. Data folder (SRC, read-only): {}. \
         Figures are saved in: {}. Workflow: list_data → describe_data on the files you need → \
         make_figure with code that follows the rules (resource {RULES_URI}); on an error, fix \
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
    fn the_rules_document_carries_every_rule_from_the_policy() {
        let policy = Policy::builtin();
        let text = rules_document(policy, &Limits::default());
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
            "open",
            "eval",
            "subprocess",
            "os.path.{join, basename",
            "io.{BytesIO, StringIO}",
            "sns.load_dataset('tips') reads tips.csv",
            "90 s, 4096 MB",
        ] {
            assert!(text.contains(needle), "{needle} missing:\n{text}");
        }
    }

    #[test]
    fn descriptions_name_every_import_and_provided_name_within_their_budget() {
        let policy = Policy::builtin();
        let text = make_figure(policy, &Limits::default());
        for name in policy
            .module_names()
            .chain(policy.preimported.iter().map(|p| p.name.as_str()))
            .chain(policy.primitives.iter().map(|p| p.usage.as_str()))
        {
            assert!(text.contains(name), "{name} missing:\n{text}");
        }
        for needle in ["plt.savefig(OUT)", RULES_URI, RULES_PROMPT, "90 s"] {
            assert!(text.contains(needle), "{needle} missing:\n{text}");
        }
        // The MCP suite pins the total through a real client; this keeps the parts honest.
        let total: usize = [text, list_data(), describe_data(), list_figures()]
            .iter()
            .map(|d| d.chars().count())
            .sum();
        assert!(total <= 2000, "{total} characters of descriptions");
    }
}
