"""What the server tells a model and a person, checked through the official client: the cost
of tools/list (issue #41 item 4), the rules as a resource and a prompt, a rejection that
still teaches them, no save advice after an intended capture (#41 item 5), and docs/mcp.md
and `--help` naming exactly the tools the server lists (#43 item 5)."""

import json
import re
import subprocess
import sys
import tomllib

import pytest
from conftest import ROOT
from mcp.shared.exceptions import MCPError
from test_mcp import connect, run, server_params, texts

# Issue #41 item 4: every conversation pays these characters before its first question.
MAX_DESCRIPTIONS = 2_000
MAX_TOOLS_LIST = 5_000

RULES_URI = "pdfagent://rules"
RULES_PROMPT = "figure_rules"
TEE = ROOT / "tests" / "mcp" / "jsonrpc_tee.py"


def policy():
    return tomllib.loads((ROOT / "python-runtime" / "allowlist.toml").read_text())


def names_a_model_needs():
    """Every allowed module, pre-imported name and provided name of the policy file."""
    p = policy()
    return (
        [m["name"] for m in p["module"]]
        + [m["name"] for m in p["preimported"]]
        + [m["usage"] for m in p["primitive"]]
    )


def wire_response(log, method):
    """The raw line the server wrote in answer to the first `method` request: what a host
    puts into the model's context, byte for byte (the client's models would re-serialise)."""
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    ids = [e["message"]["id"] for e in entries
           if e["dir"] == "->" and isinstance(e["message"], dict)
           and e["message"].get("method") == method]
    assert ids, f"the client sent no {method}"
    for e in entries:
        if e["dir"] == "<-" and isinstance(e["message"], dict) and e["message"].get("id") == ids[0]:
            return e["message"]
    pytest.fail(f"no answer to {method} in the transcript")


def test_tools_list_costs_little_and_the_rules_are_a_resource_and_a_prompt(
    pdfagent, folders, tmp_path
):
    src, figures = folders
    log = tmp_path / "session.jsonl"
    params = server_params(pdfagent, src, figures, wrap=[sys.executable, str(TEE), str(log)])

    async def go():
        async with connect(params, tmp_path / "err") as (s, init):
            tools = (await s.list_tools()).tools
            resources = (await s.list_resources()).resources
            rules = await s.read_resource(RULES_URI)
            prompts = (await s.list_prompts()).prompts
            prompt = await s.get_prompt(RULES_PROMPT)
            return init, tools, resources, rules, prompts, prompt

    init, tools, resources, rules, prompts, prompt = run(go)
    assert init.capabilities.prompts is not None and init.capabilities.resources is not None

    answer = wire_response(log, "tools/list")
    wire = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    descriptions = sum(len(t["description"]) for t in answer["result"]["tools"])
    print(f"tools/list: {len(wire)} characters, descriptions {descriptions}")
    assert descriptions <= MAX_DESCRIPTIONS, descriptions
    assert len(wire) <= MAX_TOOLS_LIST, len(wire)
    # The measure is of the real answer: every tool with its schema and annotations.
    assert {t["name"] for t in answer["result"]["tools"]} == {t.name for t in tools}
    assert all("inputSchema" in t and "annotations" in t for t in answer["result"]["tools"])

    # The short description still names what a first attempt needs, and where the rest is.
    make = next(t for t in tools if t.name == "make_figure")
    for needle in [*names_a_model_needs(), "plt.savefig(OUT)", RULES_URI, RULES_PROMPT]:
        assert needle in make.description, needle

    # The whole of the rules: listed first among the resources, readable, and as a prompt.
    assert str(resources[0].uri) == RULES_URI, resources
    (contents,) = rules.contents
    assert contents.mime_type == "text/markdown"
    assert [p.name for p in prompts] == [RULES_PROMPT]
    (message,) = prompt.messages
    assert message.role == "user"
    p = policy()
    for text in (contents.text, message.content.text):
        for needle in [*names_a_model_needs(), "plt.savefig(OUT)", "np = numpy",
                       "sns.load_dataset('tips')"]:
            assert needle in text, needle
        for builtin in p["forbidden_builtin"]:
            assert builtin["name"] in text, builtin["name"]
        for api in p["dangerous_api"]:
            assert api["name"] in text, api["name"]
    # The prompt also says where this server reads and writes.
    assert str(src) in message.content.text and str(figures) in message.content.text


def test_an_unknown_prompt_is_an_error_that_names_the_one_there_is(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            with pytest.raises(MCPError) as refused:
                await s.get_prompt("nope")
            return str(refused.value)

    assert RULES_PROMPT in run(go)


def test_a_rejection_names_the_allowed_modules_and_the_provided_names(pdfagent, folders, tmp_path):
    src, figures = folders
    canary = tmp_path / "canary"
    code = f"import os\nos.system('touch {canary}')\nplt.plot([1, 2])\nplt.savefig(OUT)\n"

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return await s.call_tool("make_figure", {"name": "r", "code": code})

    result = run(go)
    assert result.is_error
    text = texts(result)
    assert "1:8 import-not-allowed" in text, text
    for needle in [*names_a_model_needs(), "plt.savefig(OUT)"]:
        assert needle in text, f"{needle} missing:\n{text}"
    assert not canary.exists(), "the rejected code ran"
    assert list(figures.iterdir()) == []


@pytest.mark.parametrize(
    "code, captured",
    [
        ("plt.plot([1, 2, 3])\nplt.title('shown')\nplt.show()\n", "shown"),
        ("plt.plot([1, 2, 3])\nplt.title('saved')\nplt.savefig('x.png')\n", "saved"),
    ],
)
def test_no_save_advice_after_a_capture_the_code_intended(pdfagent, folders, tmp_path, code, captured):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return await s.call_tool("make_figure", {"name": "c", "code": code, "preview": "none"})

    result = run(go)
    assert not result.is_error, texts(result)
    assert [f["captured"] for f in result.structured_content["figures"]] == [captured]
    text = texts(result)
    assert "Captured" in text, text  # the note says how it was captured...
    assert "savefig(OUT)" not in text, text  # ...and gives no advice
    assert "Next time" not in text, text
    assert (figures / "c.png").is_file()


def documented_tools():
    """{tool: {argument: optional}} from the tools table of docs/mcp.md."""
    table = {}
    for line in (ROOT / "docs" / "mcp.md").read_text().splitlines():
        row = re.match(r"\| `(\w+)` \| ([^|]*) \|", line)
        if row:
            args = re.findall(r"`(\w+)(\??)`", row.group(2))
            table[row.group(1)] = {name: bool(q) for name, q in args}
    return table


def tools_named_in_help(exe, *args):
    """The tool names the help's "tools …" clause gives (the one that lists them)."""
    out = subprocess.run([str(exe), *args, "--help"], capture_output=True, text=True, check=True)
    flat = " ".join(out.stdout.split())
    clause = re.search(r"tools ([a-z_, ]+?) over the data folder", flat)
    assert clause, f"`pdfagent {' '.join(args)} --help` lists no tools:\n{out.stdout}"
    return set(re.findall(r"[a-z]+_[a-z_]+", clause.group(1)))


def test_docs_and_help_name_exactly_the_tools_the_server_lists(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return (await s.list_tools()).tools

    served = {t.name: t for t in run(go)}
    documented = documented_tools()
    assert set(documented) == set(served), (sorted(documented), sorted(served))
    for name, tool in served.items():
        schema = tool.input_schema
        required = set(schema.get("required", []))
        expected = {arg: arg not in required for arg in schema.get("properties", {})}
        assert documented[name] == expected, (name, documented[name], expected)
    assert tools_named_in_help(pdfagent) == set(served)
    assert tools_named_in_help(pdfagent, "mcp") == set(served)
