//! The code the editor starts with: it reads the chosen folder's first table or array and
//! plots it, so the first Run works on the person's own data (or, in a folder with nothing
//! to plot, draws without data). Written from the facts of the same inspection the preview
//! shows (`Preview`: columns and first rows, variables with shapes and dtypes, an array's
//! shape, a JSON outline), never from the file itself.

use python_runtime::inspect::{OutlineNode, Preview};
use python_runtime::listing::{Entry, Listing};
use python_runtime::py_str_literal as py_str;

/// The files `load()` reads as a table, variables, an array or JSON (readers.py), in the
/// order a starter prefers them: a table or array first, JSON last.
const TABLES: &[&str] = &["csv", "tsv", "tab", "dat", "txt", "xlsx"];
const ARRAYS: &[&str] = &["mat", "npy", "npz", "h5", "hdf5"];
const JSON: &[&str] = &["json"];

/// How many files are inspected, at most, looking for something to plot: each inspection
/// is a confined worker's start.
pub const MAX_TRIES: usize = 3;

/// The lines of a table plotted against its first numeric column, at most.
const MAX_SERIES: usize = 4;
/// A 2-D array with at most this many rows (or columns) is drawn as lines, else as an image.
const MAX_LINES: u64 = 12;

const HEADER: &str = "# Read data with load('file') or srcpath('file'); save the figure to OUT.\n\
# np, plt, load and loadmat are ready to use.\n";

/// The files worth inspecting for a starter, best first: tables and arrays before JSON,
/// the folder's own files before those of its subfolders, then in the listing's order.
pub fn candidates(listing: &Listing) -> Vec<&Entry> {
    let rank = |e: &Entry| {
        let ext = extension(&e.name);
        let kind = if TABLES.contains(&ext.as_str()) || ARRAYS.contains(&ext.as_str()) {
            0
        } else if JSON.contains(&ext.as_str()) {
            1
        } else {
            return None;
        };
        Some((kind, e.depth))
    };
    let mut found: Vec<(usize, (u8, usize), &Entry)> = listing
        .files()
        .enumerate()
        .filter_map(|(i, e)| rank(e).map(|r| (i, r, e)))
        .collect();
    found.sort_by_key(|&(i, rank, _)| (rank, i));
    found
        .into_iter()
        .map(|(_, _, e)| e)
        .take(MAX_TRIES)
        .collect()
}

fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default()
}

/// The starter for the file `rel` as its inspection previews it; `None` when there is
/// nothing in it to plot (no numeric column, variable or list).
pub fn for_file(rel: &str, preview: &Preview) -> Option<String> {
    let body = match preview {
        Preview::Table {
            header,
            columns,
            rows,
            ..
        } => table(rel, *header, columns, rows)?,
        Preview::Variables { variables } => {
            // The largest numeric variable (the first of equals): a file's measurement is
            // usually its biggest array, its axes and settings the small ones.
            let v = variables
                .iter()
                .filter(|v| {
                    v.dtype.as_deref().is_some_and(is_numeric_dtype)
                        && size(&v.shape) >= 2
                        && !v.name.contains('/')
                })
                .rev()
                .max_by_key(|v| size(&v.shape))?;
            let access = format!("data[{}]", py_str(&v.name));
            format!(
                "data = load({})  # a dict: variable name -> value\n{}",
                py_str(rel),
                array(&access, &v.shape, &v.name)
            )
        }
        Preview::Array { shape, dtype, .. } => {
            if !is_numeric_dtype(dtype) || size(shape) < 2 {
                return None;
            }
            let name = rel.rsplit('/').next().unwrap_or(rel);
            format!(
                "data = load({})  # a numpy array\n{}",
                py_str(rel),
                array("data", shape, name)
            )
        }
        Preview::Json { outline } => json(rel, outline)?,
        Preview::Image { .. } | Preview::None => return None,
    };
    Some(format!(
        "# Starter code for this folder: it plots {rel}, the first data file here.\n\
         {HEADER}{body}plt.title({})\nplt.savefig(OUT)\n",
        py_str(rel)
    ))
}

/// The starter for a folder with nothing to plot: a figure drawn without data.
pub fn without_data() -> String {
    format!(
        "# Starter code: this folder has no table or array to plot yet, so it draws without data.\n\
         {HEADER}x = np.linspace(0, 2 * np.pi, 200)\n\
         plt.plot(x, np.sin(x), label='sin(x)')\n\
         plt.plot(x, np.cos(x), label='cos(x)')\n\
         plt.xlabel('x')\n\
         plt.legend()\n\
         plt.savefig(OUT)\n"
    )
}

/// A table's first numeric columns: the rest against the first, or one against its row.
fn table(rel: &str, header: bool, columns: &[String], rows: &[Vec<String>]) -> Option<String> {
    let numeric: Vec<usize> = (0..columns.len())
        .filter(|&c| {
            let mut cells = rows.iter().filter_map(|r| r.get(c)).peekable();
            cells.peek().is_some() && cells.all(|cell| is_number(cell))
        })
        .collect();
    // A named column by its name, when the preview shows it whole (a cut one ends in "…");
    // otherwise by position, which is what a table without a header row has anyway.
    let column = |c: usize| match columns.get(c) {
        Some(name) if header && !name.ends_with('…') => format!("table[{}]", py_str(name)),
        _ if header => format!("table.iloc[:, {c}]"),
        _ => format!("table[{c}]"),
    };
    let label = |c: usize| match columns.get(c) {
        Some(name) if header => py_str(name),
        _ => py_str(&format!("column {c}")),
    };
    let mut out = format!(
        "table = load({})  # a pandas DataFrame, read as the preview shows it\n",
        py_str(rel)
    );
    match numeric.as_slice() {
        [] => return None,
        [only] => {
            out += &format!(
                "plt.plot({})\nplt.xlabel('row')\nplt.ylabel({})\n",
                column(*only),
                label(*only)
            );
        }
        [x, ys @ ..] => {
            for &y in ys.iter().take(MAX_SERIES) {
                out += &format!(
                    "plt.plot({}, {}, label={})\n",
                    column(*x),
                    column(y),
                    label(y)
                );
            }
            out += &format!("plt.xlabel({})\nplt.legend()\n", label(*x));
        }
    }
    Some(out)
}

/// Plot the numeric array `access` (of `shape`, before squeezing): a line, pairs of x and y,
/// a few lines, or an image (the first 2-D slice of more dimensions).
fn array(access: &str, shape: &[u64], name: &str) -> String {
    let dims: Vec<u64> = shape.iter().copied().filter(|&n| n != 1).collect();
    let mut out = format!("values = np.squeeze(np.asarray({access}, dtype=float))\n");
    let label = py_str(name);
    match dims.as_slice() {
        [_] => out += &format!("plt.plot(values)\nplt.xlabel('index')\nplt.ylabel({label})\n"),
        [2, _] => out += "plt.plot(values[0], values[1])\n",
        [_, 2] => out += "plt.plot(values[:, 0], values[:, 1])\n",
        [rows, cols] if *rows.min(cols) <= MAX_LINES => {
            // One line per row when rows are the short side (MATLAB's habit), else per column.
            let lines = if rows < cols { "values.T" } else { "values" };
            out += &format!("plt.plot({lines})\nplt.xlabel('index')\nplt.ylabel({label})\n");
        }
        _ => {
            let rest = ", 0".repeat(dims.len().saturating_sub(2));
            out += &format!(
                "plt.imshow(values[:, :{rest}], aspect='auto')\nplt.colorbar(label={label})\n"
            );
        }
    }
    out
}

/// The first list of numbers in a JSON value, reached through its keys.
fn json(rel: &str, outline: &OutlineNode) -> Option<String> {
    let path = numeric_list(outline, &mut Vec::new())?;
    let access: String = path.iter().map(|k| format!("[{}]", py_str(k))).collect();
    let label = path
        .last()
        .map(|k| py_str(k))
        .unwrap_or_else(|| py_str(rel));
    Some(format!(
        "data = load({})  # the parsed JSON value\n\
         plt.plot(data{access})\nplt.xlabel('index')\nplt.ylabel({label})\n",
        py_str(rel)
    ))
}

fn numeric_list(node: &OutlineNode, path: &mut Vec<String>) -> Option<Vec<String>> {
    match node.kind.as_str() {
        "list" if node.len.unwrap_or(0) >= 2 => node
            .children
            .first()
            .filter(|c| matches!(c.kind.as_str(), "int" | "float"))
            .map(|_| path.clone()),
        "dict" => node.children.iter().find_map(|child| {
            // A key cut short in the outline cannot be written back.
            if child.key.ends_with('…') {
                return None;
            }
            path.push(child.key.clone());
            let found = numeric_list(child, path);
            path.pop();
            found
        }),
        _ => None,
    }
}

fn size(shape: &[u64]) -> u64 {
    shape.iter().product()
}

/// A numpy dtype of real numbers (`float64`, `int16`, `uint8`; not complex, bool or text).
fn is_numeric_dtype(dtype: &str) -> bool {
    ["float", "int", "uint"].iter().any(|p| {
        dtype
            .strip_prefix(p)
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
    })
}

fn is_number(cell: &str) -> bool {
    let cell = cell.trim();
    !cell.is_empty() && cell.parse::<f64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use python_runtime::inspect::Variable;

    /// Every starter must pass the check the Run applies, unchanged.
    fn checked(code: String) -> String {
        if let Err(rejection) = python_runtime::check(code.as_bytes()) {
            panic!("the starter is rejected: {}\n{code}", rejection.hint);
        }
        code
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_table_plots_its_numeric_columns_against_the_first_by_name() {
        let preview = Preview::Table {
            separator: Some("comma".into()),
            header: true,
            columns: strings(&["label", "k", "band1_eV", "band \"2\""]),
            rows: vec![
                strings(&["a", "0.0", "1.5", "-2"]),
                strings(&["b", "0.1", "1.4", "nan"]),
            ],
            rows_total: Some(2),
        };
        let code = checked(for_file("sub/bands.csv", &preview).expect("a starter"));
        assert!(code.contains("table = load('sub/bands.csv')"), "{code}");
        assert!(
            code.contains("plt.plot(table['k'], table['band1_eV'], label='band1_eV')"),
            "{code}"
        );
        assert!(code.contains(r#"table['band "2"']"#), "{code}");
        assert!(
            !code.contains("table['label']"),
            "text columns are not plotted: {code}"
        );
        assert!(code.ends_with("plt.savefig(OUT)\n"), "{code}");
    }

    #[test]
    fn a_table_without_header_uses_positions_and_one_column_plots_against_the_row() {
        let preview = Preview::Table {
            separator: Some("whitespace".into()),
            header: false,
            columns: strings(&["0", "1"]),
            rows: vec![strings(&["x", "3"]), strings(&["y", "4"])],
            rows_total: None,
        };
        let code = checked(for_file("t.txt", &preview).expect("a starter"));
        assert!(code.contains("plt.plot(table[1])\n"), "{code}");
    }

    #[test]
    fn a_table_with_no_numbers_has_no_starter() {
        let preview = Preview::Table {
            separator: None,
            header: true,
            columns: strings(&["name"]),
            rows: vec![strings(&["a"])],
            rows_total: Some(1),
        };
        assert_eq!(for_file("names.xlsx", &preview), None);
    }

    fn var(name: &str, shape: &[u64], dtype: &str) -> Variable {
        Variable {
            name: name.into(),
            shape: shape.to_vec(),
            class: Some("double".into()),
            dtype: Some(dtype.into()),
        }
    }

    #[test]
    fn a_mat_file_plots_its_largest_numeric_variable_the_first_of_equals() {
        let preview = Preview::Variables {
            variables: vec![
                var("label", &[1, 11], "str"),
                var("one", &[1, 1], "float64"),
                var("z", &[1, 5], "complex128"),
                var("B_T", &[1, 181], "float64"),
                var("Rxx_ohm", &[3, 181], "float32"),
                var("same_size", &[181, 3], "float64"),
            ],
        };
        let code = checked(for_file("field_sweep.mat", &preview).expect("a starter"));
        assert!(
            code.contains("values = np.squeeze(np.asarray(data['Rxx_ohm'], dtype=float))"),
            "{code}"
        );
        assert!(
            code.contains("plt.plot(values.T)"),
            "three rows are three lines: {code}"
        );
    }

    #[test]
    fn arrays_by_shape_a_line_pairs_lines_or_an_image() {
        let code = |shape: &[u64]| {
            let preview = Preview::Array {
                shape: shape.to_vec(),
                dtype: "float64".into(),
                first: vec![],
            };
            checked(for_file("a.npy", &preview).expect("a starter"))
        };
        assert!(code(&[1, 50]).contains("plt.plot(values)\n"));
        assert!(code(&[2, 500]).contains("plt.plot(values[0], values[1])"));
        assert!(code(&[500, 2]).contains("plt.plot(values[:, 0], values[:, 1])"));
        assert!(code(&[500, 4]).contains("plt.plot(values)\n"));
        assert!(code(&[64, 64]).contains("plt.imshow(values[:, :], aspect='auto')"));
        assert!(code(&[8, 64, 64]).contains("plt.imshow(values[:, :, 0], aspect='auto')"));
        let text = Preview::Array {
            shape: vec![4],
            dtype: "<U3".into(),
            first: vec![],
        };
        assert_eq!(for_file("a.npy", &text), None);
    }

    fn node(key: &str, kind: &str, len: Option<u64>, children: Vec<OutlineNode>) -> OutlineNode {
        OutlineNode {
            key: key.into(),
            kind: kind.into(),
            len,
            value: None,
            children,
        }
    }

    #[test]
    fn json_plots_its_first_list_of_numbers() {
        let outline = node(
            "(root)",
            "dict",
            Some(2),
            vec![
                node("sample", "str", None, vec![]),
                node(
                    "run",
                    "dict",
                    Some(1),
                    vec![node(
                        "counts",
                        "list",
                        Some(9),
                        vec![node("[0]", "int", None, vec![])],
                    )],
                ),
            ],
        );
        let code = checked(for_file("meta.json", &Preview::Json { outline }).expect("a starter"));
        assert!(code.contains("plt.plot(data['run']['counts'])"), "{code}");
        let scalars = node(
            "(root)",
            "dict",
            Some(1),
            vec![node("sample", "str", None, vec![])],
        );
        assert_eq!(
            for_file("meta.json", &Preview::Json { outline: scalars }),
            None
        );
    }

    #[test]
    fn without_data_passes_the_check() {
        checked(without_data());
    }

    fn entry(path: &str, depth: usize) -> Entry {
        Entry {
            path: path.into(),
            name: path.rsplit('/').next().unwrap_or(path).into(),
            depth,
            dir: false,
            bytes: 10,
            link_to: None,
            refused: None,
        }
    }

    #[test]
    fn candidates_prefer_tables_and_arrays_at_the_top() {
        let listing = Listing {
            entries: vec![
                entry("a/deep.csv", 1),
                entry("meta.json", 0),
                entry("notes.md", 0),
                entry("photo.png", 0),
                entry("spectrum.npy", 0),
                entry("z.CSV", 0),
            ],
            left_out: 0,
            not_entered: 0,
            hidden: 0,
        };
        let paths: Vec<&str> = candidates(&listing)
            .iter()
            .map(|e| e.path.as_str())
            .collect();
        assert_eq!(paths, ["spectrum.npy", "z.CSV", "a/deep.csv"]);
    }
}
