//! The ready-to-paste client configuration (`pdfagent mcp --print-config`, and the window's
//! "connect an agent" panel): this executable's absolute path and the data folder.

use std::path::Path;

/// `{"mcpServers": {"pdfagent": {"command": EXE, "args": ["mcp", "--src", SRC, ...]}}}`,
/// the shape desktop MCP clients read.
pub fn client_config(exe: &Path, src: &Path, figures: &Path) -> serde_json::Value {
    let args = [
        "mcp".to_owned(),
        "--src".to_owned(),
        src.display().to_string(),
        "--figures".to_owned(),
        figures.display().to_string(),
    ];
    serde_json::json!({
        "mcpServers": {
            "pdfagent": {
                "command": exe.display().to_string(),
                "args": args,
            }
        }
    })
}

/// The same, for the executable that is running now (resolved, so it survives a `cd`).
pub fn client_config_for_this_exe(
    src: &Path,
    figures: &Path,
) -> std::io::Result<serde_json::Value> {
    let exe = python_runtime::running_executable()?.canonicalize()?;
    Ok(client_config(&exe, src, figures))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_names_the_exe_and_the_folders() {
        let v = client_config(
            Path::new("/opt/pdfagent"),
            Path::new("/data"),
            Path::new("/figs"),
        );
        assert_eq!(v["mcpServers"]["pdfagent"]["command"], "/opt/pdfagent");
        assert_eq!(
            v["mcpServers"]["pdfagent"]["args"],
            serde_json::json!(["mcp", "--src", "/data", "--figures", "/figs"])
        );
    }
}
