# PDFAgent's inspection of one data file (pipeline::inspect): a FIXED script of ours, never
# model code, run by the confined worker for MCP's describe_data and the window's preview.
# The worker script is readers.py, this file and the call line `_pdfagent_inspect()`.
#
# What to inspect comes as data: `request.json` beside the script holds
# {"path": "<the file's real path inside SRC>", "rel": "<the path as given>", "preview": bool};
# nothing of the request is ever spliced into code. The answer is the last line on stdout:
# the marker, then {"text": ..., "preview": {...} or null} as JSON (inspect.rs reads it).



def _pdfagent_inspect():
    import json
    import os
    import sys

    marker = "PDFAGENT-INSPECT "

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "request.json"), encoding="utf-8") as f:
        request = json.load(f)
    readers = _pdfagent_readers()
    answer = readers.inspect(request["path"], request["rel"], bool(request["preview"]))
    sys.stdout.write("\n" + marker + json.dumps(answer, ensure_ascii=True) + "\n")
    sys.stdout.flush()
