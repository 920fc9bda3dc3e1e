"""A transparent stdio proxy that records an MCP session: `jsonrpc_tee.py LOG CMD ARGS...`
starts CMD, passes stdin/stdout through line by line, and appends every JSON-RPC line to LOG
as {"dir": "->"|"<-", "message": ...} (-> = client to server). Used to capture the
transcript in docs/mcp-transcript.md from a real session with the official client."""

import json
import subprocess
import sys
import threading


def main():
    log_path, command = sys.argv[1], sys.argv[2:]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")

    def record(direction, line):
        try:
            message = json.loads(line)
        except ValueError:
            message = line.decode(errors="replace")
        with lock:
            log.write(json.dumps({"dir": direction, "message": message}) + "\n")
            log.flush()

    def pump_in():
        for line in sys.stdin.buffer:
            record("->", line)
            server.stdin.write(line)
            server.stdin.flush()
        server.stdin.close()

    threading.Thread(target=pump_in, daemon=True).start()
    for line in server.stdout:
        record("<-", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    sys.exit(server.wait())


main()
