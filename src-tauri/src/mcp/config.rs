//! The ready-to-paste client configuration (`pdfagent mcp --print-config`, and the window's
//! "connect an agent" panel): this executable's absolute path and the data folder.

use std::path::Path;

/// `{"mcpServers": {"pdfagent": {"command": EXE, "args": ["mcp", "--src", SRC, ...]}}}`,
/// the shape desktop MCP clients read. `figures` is included only when given.
pub fn client_config(exe: &Path, src: &Path, figures: Option<&Path>) -> serde_json::Value {
    let mut args = vec![
        "mcp".to_owned(),
        "--src".to_owned(),
        src.display().to_string(),
    ];
    if let Some(figures) = figures {
        args.push("--figures".to_owned());
        args.push(figures.display().to_string());
    }
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
    figures: Option<&Path>,
) -> std::io::Result<serde_json::Value> {
    let exe = std::env::current_exe()?.canonicalize()?;
    Ok(client_config(&exe, src, figures))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_names_the_exe_and_the_folders() {
        let v = client_config(Path::new("/opt/pdfagent"), Path::new("/data"), None);
        assert_eq!(v["mcpServers"]["pdfagent"]["command"], "/opt/pdfagent");
        assert_eq!(
            v["mcpServers"]["pdfagent"]["args"],
            serde_json::json!(["mcp", "--src", "/data"])
        );
        let v = client_config(
            Path::new("/x"),
            Path::new("/data"),
            Some(Path::new("/figs")),
        );
        assert_eq!(v["mcpServers"]["pdfagent"]["args"][4], "/figs");
    }
}
