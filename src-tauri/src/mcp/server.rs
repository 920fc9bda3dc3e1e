//! The four tools over rmcp's tool router, the rules as a resource and a prompt, and the
//! figures as resources. Each call runs on a blocking thread as its own
//! confined run; the request's cancellation token (a client's `notifications/cancelled`, or
//! the connection closing) sets that run's cancel flag, which kills its worker tree.
//! `make_figure` runs on the warm worker kept ready for the server's folders (one at a
//! time: calls made while it is busy run cold, in parallel). A `make_figure` call with a
//! progress token gets `notifications/progress` while it runs (`progress.rs`).

use super::runs::{RunGuard, Runs};
use super::{progress, resources, results, text};
use python_runtime::Policy;
use python_runtime::inspect::{self, Detail};
use python_runtime::listing;
use python_runtime::progress::RunClock;
use python_runtime::{FigureFormat, FigureRequest, Limits, WarmPool};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
    ListPromptsResult, ListResourcesResult, PaginatedRequestParams, Prompt, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Role, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, schemars, tool, tool_handler, tool_router};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Runs allowed at once; further calls wait for a slot (still cancellable). Each worker may
/// take gigabytes, and the machine's cores are the user's too.
pub const MAX_PARALLEL_RUNS: usize = 4;

/// What the server was started with: folders already validated and resolved.
#[derive(Debug, Clone)]
pub struct Settings {
    pub src: PathBuf,
    pub figures: PathBuf,
    pub limits: Limits,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct MakeFigureArgs {
    // The doc comments below are the schema's property descriptions, sent with every
    // tools/list: short on purpose (docs/mcp.md has the long form).
    /// File stem, 1-64 letters, digits, _ - . (e.g. field_sweep); an existing figure of
    /// this name is kept as a version.
    pub name: String,
    /// The complete Python script.
    pub code: String,
    /// png (default; also previewed), svg or pdf (saved only).
    #[serde(default)]
    pub format: FormatArg,
    /// inline (default): a small preview image per figure; none: text and links only.
    #[serde(default)]
    pub preview: PreviewArg,
}

#[derive(Debug, Clone, Copy, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PreviewArg {
    #[default]
    Inline,
    None,
}

impl From<PreviewArg> for results::Preview {
    fn from(arg: PreviewArg) -> Self {
        match arg {
            PreviewArg::Inline => results::Preview::Inline,
            PreviewArg::None => results::Preview::None,
        }
    }
}

// `FigureFormat` as the tool's schema spells it (the engine's type has no JSON schema); a
// plain comment, not a doc comment, which would become a description in the schema.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FormatArg {
    #[default]
    Png,
    Svg,
    Pdf,
}

impl From<FormatArg> for FigureFormat {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Png => FigureFormat::Png,
            FormatArg::Svg => FigureFormat::Svg,
            FormatArg::Pdf => FigureFormat::Pdf,
        }
    }
}

#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
pub struct ListDataArgs {
    /// A sub-folder to list (relative); omit for all.
    #[serde(default)]
    pub sub: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct DescribeDataArgs {
    /// A path as list_data shows it, e.g. runs/run1.mat.
    pub path: String,
}

#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
pub struct ListFiguresArgs {
    /// Also return each figure's code.
    #[serde(default)]
    pub code: bool,
    /// Only the figures of this name.
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Clone)]
pub struct PdfAgentServer {
    settings: Arc<Settings>,
    runs: Arc<Runs>,
    pool: Arc<WarmPool>,
    slots: Arc<Semaphore>,
    tool_router: ToolRouter<Self>,
}

/// Why a blocking job ended without its own result.
enum Interrupted {
    ShuttingDown,
    Cancelled,
    Panicked,
}

#[tool_router]
impl PdfAgentServer {
    pub fn new(settings: Settings, runs: Arc<Runs>, pool: Arc<WarmPool>) -> Self {
        let mut tool_router = Self::tool_router();
        // The descriptions carry the policy and this server's folders and limits, so they
        // are generated here rather than written as literals on the methods below.
        let policy = Policy::builtin();
        let generated = [
            ("make_figure", text::make_figure(policy, &settings.limits)),
            ("list_data", text::list_data()),
            ("describe_data", text::describe_data()),
            ("list_figures", text::list_figures()),
        ];
        for (name, description) in generated {
            if let Some(route) = tool_router.map.get_mut(name) {
                route.attr.description = Some(description.into());
                // 2020-12 is what an input schema without `$schema` means (MCP spec); the
                // key would cost every tools/list 60 characters per tool.
                let mut schema = (*route.attr.input_schema).clone();
                schema.remove("$schema");
                route.attr.input_schema = Arc::new(schema);
            }
        }
        PdfAgentServer {
            settings: Arc::new(settings),
            runs,
            pool,
            slots: Arc::new(Semaphore::new(MAX_PARALLEL_RUNS)),
            tool_router,
        }
    }

    /// Run `job` on a blocking thread as one registered run: waits for a free slot, and
    /// sets the run's cancel flag when `ct` fires (the worker tree is then killed and the
    /// job returns). The job's result is awaited even after cancellation, so no worker
    /// outlives the call.
    async fn confined<T, F>(&self, ct: CancellationToken, job: F) -> Result<T, Interrupted>
    where
        T: Send + 'static,
        F: FnOnce(&RunGuard) -> T + Send + 'static,
    {
        let permit = tokio::select! {
            permit = Arc::clone(&self.slots).acquire_owned() => {
                permit.map_err(|_| Interrupted::ShuttingDown)?
            }
            _ = ct.cancelled() => return Err(Interrupted::Cancelled),
        };
        let guard = self.runs.start().ok_or(Interrupted::ShuttingDown)?;
        let cancel = guard.cancel.clone();
        let mut handle = tokio::task::spawn_blocking(move || {
            let result = job(&guard);
            drop(guard);
            drop(permit);
            result
        });
        let joined = tokio::select! {
            joined = &mut handle => joined,
            _ = ct.cancelled() => {
                cancel.store(true, Ordering::SeqCst);
                eprintln!("pdfagent mcp: a run was cancelled; stopping its worker");
                let _ = handle.await;
                return Err(Interrupted::Cancelled);
            }
        };
        joined.map_err(|_| Interrupted::Panicked)
    }

    /// Check, run confined and save one figure; returns it as an image.
    #[tool(
        name = "make_figure",
        annotations(
            title = "Make a figure from local data",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn make_figure(
        &self,
        Parameters(args): Parameters<MakeFigureArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let settings = Arc::clone(&self.settings);
        let pool = Arc::clone(&self.pool);
        let name = args.name.clone();
        let format = FigureFormat::from(args.format);
        let preview = results::Preview::from(args.preview);
        let clock = Arc::new(RunClock::start());
        let stages = Arc::clone(&clock);
        let job = self.confined(context.ct.clone(), move |run| {
            let request = FigureRequest {
                name: args.name,
                code: args.code.into_bytes(),
                src: settings.src.clone(),
                figures: settings.figures.clone(),
                format,
                limits: settings.limits,
                preview: preview == results::Preview::Inline,
            };
            pool.submit(&request, &run.cancel, &|stage| stages.observe(stage))
        });
        let reporter = progress::Reporter::for_request(&context);
        let outcome = progress::while_running(reporter, &clock, &context.ct, job).await;
        Ok(match outcome {
            Ok(result) => {
                eprintln!(
                    "pdfagent mcp: make_figure `{name}`: {:?} in {} ms",
                    result.stage, result.ms
                );
                results::figure(&result, preview)
            }
            Err(why) => interrupted("make_figure", why),
        })
    }

    /// List the files in the data folder.
    #[tool(
        name = "list_data",
        annotations(
            title = "List the data files",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn list_data(
        &self,
        Parameters(args): Parameters<ListDataArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let src = self.settings.src.clone();
        let sub = args.sub.unwrap_or_default();
        let shown = sub.clone();
        let listed = tokio::task::spawn_blocking(move || listing::list(&src, &sub)).await;
        Ok(match listed {
            Ok(Ok(listed)) => results::listing(&shown, &listed),
            Ok(Err(e)) => results::error_text(e.to_string()),
            Err(_) => interrupted("list_data", Interrupted::Panicked),
        })
    }

    /// The figures made so far, with their names, times and whether their data changed.
    #[tool(
        name = "list_figures",
        annotations(
            title = "List the figures made",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn list_figures(
        &self,
        Parameters(args): Parameters<ListFiguresArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let src = self.settings.src.clone();
        let figures = self.settings.figures.clone();
        let scanned = tokio::task::spawn_blocking(move || {
            let entries = python_runtime::provenance::folder::scan(&figures, &src)?;
            let counts = results::version_counts(&figures, &entries);
            Ok::<_, std::io::Error>((entries, counts))
        })
        .await;
        Ok(match scanned {
            Ok(Ok((mut entries, counts))) => {
                if let Some(name) = &args.name {
                    // As make_figure saved it: NFC.
                    let name = python_runtime::validate::figure_name(name)
                        .unwrap_or_else(|_| name.clone());
                    entries.retain(|e| e.name() == Some(name.as_str()));
                }
                let mut result = results::figure_list(&entries, &counts);
                if args.code {
                    result
                        .content
                        .push(rmcp::model::ContentBlock::text(results::figure_code(
                            &entries,
                        )));
                }
                result
            }
            Ok(Err(e)) => results::error_text(format!(
                "the figures folder `{}` could not be read: {e}",
                self.settings.figures.display()
            )),
            Err(_) => interrupted("list_figures", Interrupted::Panicked),
        })
    }

    /// Describe one data file (columns, variables, shapes) with a fixed confined script: the
    /// engine's inspection, whose text the window's preview shows too.
    #[tool(
        name = "describe_data",
        annotations(
            title = "Describe a data file",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn describe_data(
        &self,
        Parameters(args): Parameters<DescribeDataArgs>,
        ct: CancellationToken,
    ) -> Result<CallToolResult, ErrorData> {
        let src = self.settings.src.clone();
        let rel = args.path;
        let outcome = self
            .confined(ct, move |run| {
                let limits = inspect::default_limits();
                inspect::inspect(&src, &rel, Detail::Text, &limits, &run.cancel)
            })
            .await;
        Ok(match outcome {
            Ok(Ok(inspection)) => {
                CallToolResult::success(vec![rmcp::model::ContentBlock::text(inspection.text)])
            }
            Ok(Err(e)) => results::error_text(results::tail(&e.to_string(), 4000).to_owned()),
            Err(why) => interrupted("describe_data", why),
        })
    }
}

fn interrupted(tool: &str, why: Interrupted) -> CallToolResult {
    results::error_text(match why {
        Interrupted::ShuttingDown => format!("{tool}: the server is shutting down; nothing ran"),
        Interrupted::Cancelled => format!("{tool}: cancelled; the run was stopped"),
        Interrupted::Panicked => {
            format!("{tool}: internal error in the server (see its stderr); please retry")
        }
    })
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for PdfAgentServer {
    /// The rules for figure code, then the figures in the figures folder (what
    /// `make_figure`'s links name).
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let figures = self.settings.figures.clone();
        let mut listed = vec![resources::rules()];
        let figures = tokio::task::spawn_blocking(move || resources::list(&figures))
            .await
            .unwrap_or_default();
        listed.extend(figures);
        Ok(ListResourcesResult::with_all_items(listed))
    }

    /// The rules (`pdfagent://rules`), or one figure file of the figures folder, whole, by
    /// its `file://` URI.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri == text::RULES_URI {
            let rules = text::rules_document(Policy::builtin(), &self.settings.limits);
            return Ok(ReadResourceResult::new(vec![resources::rules_contents(rules)]).into());
        }
        let figures = self.settings.figures.clone();
        let uri = request.uri;
        let read = tokio::task::spawn_blocking(move || resources::read(&figures, &uri)).await;
        match read {
            Ok(Ok(contents)) => Ok(ReadResourceResult::new(vec![contents]).into()),
            Ok(Err(refused)) => Err(ErrorData::resource_not_found(refused.to_string(), None)),
            Err(_) => Err(ErrorData::internal_error("reading the figure failed", None)),
        }
    }

    /// One prompt: the rules for figure code, for clients that offer prompts to the person
    /// (the same text as the `pdfagent://rules` resource).
    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompt = Prompt::new(
            text::RULES_PROMPT,
            Some("The rules make_figure code must follow, and how to work with this server."),
            None,
        )
        .with_title("Rules for figure code");
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != text::RULES_PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "no prompt `{}`: this server has one, `{}`",
                    request.name,
                    text::RULES_PROMPT
                ),
                None,
            ));
        }
        let body = format!(
            "{}\n{}",
            text::instructions(&self.settings.src, &self.settings.figures),
            text::rules_document(Policy::builtin(), &self.settings.limits)
        );
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, body)])
                .with_description("Rules for figure code")
                .into(),
        )
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("pdfagent", env!("CARGO_PKG_VERSION")))
        .with_instructions(text::instructions(
            &self.settings.src,
            &self.settings.figures,
        ))
    }
}
