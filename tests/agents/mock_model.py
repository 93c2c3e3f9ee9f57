#!/usr/bin/env python3
"""A scripted model server on 127.0.0.1 for the end-to-end agent tests.

It speaks just enough of four model APIs for the real agent clients to run
a session against it:

  Anthropic Messages      POST /v1/messages                  (Claude Code)
  Gemini                  POST /v1beta/models/M:streamGenerateContent,
                                :generateContent, :countTokens (Gemini CLI)
  OpenAI Responses        POST /v1/responses                 (Codex)
  OpenAI Chat Completions POST /v1/chat/completions          (Copilot CLI)

The script (a JSON list) says what the model does at each step of the
conversation: {"shell": CMD}, {"write": PATH, "content": TEXT} or
{"text": TEXT}.  The step is not a counter kept here but the number of
model turns already in the request's history, so a client that retries a
request or asks the model something on the side (a title, a "who speaks
next" check) does not shift the script.  A request is the conversation's
("main") when it offers the client's shell tool; any other gets a short
answer of its own and does not count.

Every request is appended to LOG (JSON lines): the API, whether it was
main, the step it was served as, the tool names offered, and the "tail":
what the client added since the model's last turn (the tool results, the
prompt and its hook context, a Stop hook's reason).  The tests read that
to see what reached the model.  Raw bodies go to LOG.d/NNN.json.

Usage: mock_model.py --script FILE --log FILE --port-file FILE
                     [--lifetime SECONDS]
"""

import argparse
import http.server
import json
import os
import re
import sys
import threading
import time

SHELL_TOOLS = ("Bash", "run_shell_command", "exec_command", "shell_command",
               "shell", "bash")
WRITE_TOOLS = ("Write", "write_file", "apply_patch", "create")


class Mock:
    def __init__(self, script, log):
        self.script = script
        self.log = log
        self.lock = threading.Lock()
        self.seq = 0
        os.makedirs(log + ".d", exist_ok=True)

    def record(self, entry, raw):
        with self.lock:
            self.seq += 1
            entry["seq"] = self.seq
            with open("%s.d/%03d.json" % (self.log, self.seq), "wb") as f:
                f.write(raw)
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def step(self, n):
        if n < len(self.script):
            return self.script[n]
        return {"text": "MOCK-EXHAUSTED: the script has no step %d" % n}


def patch_for(path, content):
    """An apply_patch 'Add File' patch of PATH with CONTENT."""
    lines = "".join("+" + line + "\n" for line in content.split("\n")
                    if line != "")
    return ("*** Begin Patch\n*** Add File: %s\n%s*** End Patch\n"
            % (path, lines))


# ---- reading a request -------------------------------------------------

def anthropic_view(body):
    tools = [t.get("name") for t in body.get("tools") or []]
    msgs = body.get("messages") or []
    turns = [i for i, m in enumerate(msgs) if m.get("role") == "assistant"]
    tail = msgs[turns[-1] + 1:] if turns else msgs
    return tools, len(turns), tail


def gemini_view(body):
    tools = []
    for t in body.get("tools") or []:
        for d in (t.get("functionDeclarations")
                  or t.get("function_declarations") or []):
            tools.append(d.get("name"))
    contents = body.get("contents") or []
    turns = [i for i, c in enumerate(contents) if c.get("role") == "model"]
    tail = contents[turns[-1] + 1:] if turns else contents
    return tools, len(turns), tail


def is_model_item(item):
    kind = item.get("type")
    if kind in ("function_call", "custom_tool_call", "local_shell_call"):
        return True
    return kind == "message" and item.get("role") == "assistant"


def responses_view(body):
    tools = []
    for t in body.get("tools") or []:
        tools.append(t.get("name") or t.get("type"))
    items = body.get("input") or []
    if isinstance(items, str):
        items = [{"type": "message", "role": "user", "content": items}]
    turns = [i for i, it in enumerate(items) if is_model_item(it)]
    tail = items[turns[-1] + 1:] if turns else items
    return tools, len(turns), tail


def chat_view(body):
    tools = [(t.get("function") or {}).get("name")
             for t in body.get("tools") or []]
    msgs = body.get("messages") or []
    turns = [i for i, m in enumerate(msgs) if m.get("role") == "assistant"]
    tail = msgs[turns[-1] + 1:] if turns else msgs
    return tools, len(turns), tail


def pick(tools, names):
    for n in names:
        if n in tools:
            return n
    return None


# ---- the model's action as a tool call of the client's own tools ------

def tool_call(step, tools, tool_specs):
    """(name, arguments dict or patch string, kind) for STEP, or None."""
    if "shell" in step:
        name = pick(tools, SHELL_TOOLS)
        cmd = step["shell"]
        if name == "exec_command":
            return name, {"cmd": cmd}, "function"
        if name == "shell":
            return name, {"command": ["bash", "-lc", cmd]}, "function"
        if name == "bash":
            return name, {"command": cmd, "description": "run a command",
                          "mode": "sync", "initial_wait": 30}, "function"
        if name is None:
            return None
        return name, {"command": cmd, "description": "run a command"}, \
            "function"
    if "write" in step:
        name = pick(tools, WRITE_TOOLS)
        path, content = step["write"], step.get("content", "")
        if name == "Write":
            return name, {"file_path": path, "content": content}, "function"
        if name == "write_file":
            return name, {"file_path": path, "content": content}, "function"
        if name == "create":
            return name, {"path": path, "file_text": content}, "function"
        if name == "apply_patch":
            patch = patch_for(path, content)
            if tool_specs.get("apply_patch") == "custom":
                return name, patch, "custom"
            return name, {"input": patch}, "function"
        return None
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-model/1"

    def log_message(self, fmt, *args):  # quiet: the JSON log is the record
        pass

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if self.headers.get("Content-Encoding") == "zstd":
            raise ValueError("zstd request bodies are not supported")
        if self.headers.get("Content-Encoding") == "gzip":
            import gzip
            raw = gzip.decompress(raw)
        return raw

    def send(self, code, obj, ctype="application/json"):
        data = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def sse(self, events):
        """EVENTS: list of (event name or None, data object or string)."""
        out = []
        for name, data in events:
            if name:
                out.append("event: %s\n" % name)
            if not isinstance(data, str):
                data = json.dumps(data)
            out.append("data: %s\n\n" % data)
        data = "".join(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        # Gemini CLI's next request fails ("fetch failed") on a kept-alive
        # connection after an SSE body.
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        mock = self.server.mock
        mock.record({"method": "GET", "path": self.path, "main": False},
                    b"")
        if self.path.rstrip("/").endswith("/models"):
            self.send(200, {"object": "list", "data": [
                {"id": m, "object": "model", "created": 0,
                 "owned_by": "mock"} for m in
                ("gpt-4.1", "gpt-5.5", "claude-sonnet-4-5",
                 "gemini-2.5-flash")]})
            return
        self.send(404, {"error": {"message": "mock: no GET " + self.path}})

    def do_POST(self):
        mock = self.server.mock
        try:
            raw = self.body()
            body = json.loads(raw or b"{}")
        except (ValueError, OSError) as e:
            mock.record({"method": "POST", "path": self.path, "main": False,
                         "error": str(e)}, b"")
            self.send(400, {"error": {"message": "mock: " + str(e)}})
            return
        path = self.path.split("?")[0]
        if path.endswith("/messages"):
            api, view = "anthropic", anthropic_view
        elif re.search(r":(stream)?[gG]enerateContent$", path):
            api, view = "gemini", gemini_view
        elif path.endswith(":countTokens"):
            mock.record({"method": "POST", "path": self.path, "main": False,
                         "api": "gemini"}, raw)
            self.send(200, {"totalTokens": 10})
            return
        elif path.endswith("/responses"):
            api, view = "responses", responses_view
        elif path.endswith("/chat/completions"):
            api, view = "chat", chat_view
        else:
            mock.record({"method": "POST", "path": self.path, "main": False},
                        raw)
            self.send(404, {"error": {"message": "mock: no " + self.path}})
            return
        tools, turns, tail = view(body)
        main = pick(tools, SHELL_TOOLS) is not None
        step = mock.step(turns) if main else None
        mock.record({"method": "POST", "path": self.path, "api": api,
                     "main": main, "step": turns if main else None,
                     "tools": tools, "tail": tail, "answer": step}, raw)
        getattr(self, "answer_" + api)(body, step, tools)

    # ---- Anthropic Messages ---------------------------------------------

    def answer_anthropic(self, body, step, tools):
        model = body.get("model", "claude-mock")
        call = tool_call(step, tools, {}) if step else None
        if call:
            name, args, _ = call
            block = {"type": "tool_use", "id": "toolu_%06d" % self.server.
                     mock.seq, "name": name, "input": args}
            stop = "tool_use"
        else:
            text = step["text"] if step else "ok"
            block = {"type": "text", "text": text}
            stop = "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5,
                 "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0}
        msg = {"id": "msg_%06d" % self.server.mock.seq, "type": "message",
               "role": "assistant", "model": model, "content": [block],
               "stop_reason": stop, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            self.send(200, msg)
            return
        start = dict(msg, content=[], stop_reason=None)
        if block["type"] == "tool_use":
            first = dict(block, input={})
            delta = {"type": "input_json_delta",
                     "partial_json": json.dumps(block["input"])}
        else:
            first = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        self.sse([
            ("message_start", {"type": "message_start", "message": start}),
            ("content_block_start", {"type": "content_block_start",
                                     "index": 0, "content_block": first}),
            ("content_block_delta", {"type": "content_block_delta",
                                     "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop",
                                    "index": 0}),
            ("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": stop,
                                         "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ])

    # ---- Gemini -----------------------------------------------------------

    def answer_gemini(self, body, step, tools):
        call = tool_call(step, tools, {}) if step else None
        if call:
            part = {"functionCall": {"name": call[0], "args": call[1]}}
        elif step:
            part = {"text": step["text"]}
        else:
            gen = body.get("generationConfig") or {}
            if gen.get("responseMimeType") == "application/json":
                # A side question that wants JSON: the "next speaker" check.
                part = {"text": json.dumps({"reasoning": "mock",
                                            "next_speaker": "user"})}
            else:
                part = {"text": "ok"}
        resp = {"candidates": [{"content": {"role": "model",
                                            "parts": [part]},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 10,
                                  "candidatesTokenCount": 5,
                                  "totalTokenCount": 15},
                "modelVersion": "gemini-2.5-flash"}
        if "streamGenerateContent" in self.path:
            self.sse([(None, resp)])
        else:
            self.send(200, resp)

    # ---- OpenAI Responses (Codex) ----------------------------------------

    def answer_responses(self, body, step, tools):
        seq = self.server.mock.seq
        specs = {t.get("name"): t.get("type")
                 for t in body.get("tools") or [] if t.get("name")}
        call = tool_call(step, tools, specs) if step else None
        if call and call[2] == "custom":
            item = {"type": "custom_tool_call", "id": "ctc_%06d" % seq,
                    "call_id": "call_%06d" % seq, "name": call[0],
                    "input": call[1], "status": "completed"}
        elif call:
            item = {"type": "function_call", "id": "fc_%06d" % seq,
                    "call_id": "call_%06d" % seq, "name": call[0],
                    "arguments": json.dumps(call[1]), "status": "completed"}
        else:
            text = step["text"] if step else "ok"
            item = {"type": "message", "role": "assistant",
                    "id": "msg_%06d" % seq, "status": "completed",
                    "content": [{"type": "output_text", "text": text,
                                 "annotations": []}]}
        rid = "resp_%06d" % seq
        usage = {"input_tokens": 10, "input_tokens_details":
                 {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}
        resp = {"id": rid, "object": "response", "created_at": int(
            time.time()), "status": "completed", "model": body.get("model"),
            "output": [item], "usage": usage}
        if not body.get("stream"):
            self.send(200, resp)
            return
        self.sse([
            ("response.created", {"type": "response.created",
                                  "response": dict(resp, status="in_progress",
                                                   output=[])}),
            ("response.output_item.added", {"type":
                                            "response.output_item.added",
                                            "output_index": 0,
                                            "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done",
                                           "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed",
                                    "response": resp}),
        ])

    # ---- OpenAI Chat Completions (Copilot BYOK) --------------------------

    def answer_chat(self, body, step, tools):
        seq = self.server.mock.seq
        call = tool_call(step, tools, {}) if step else None
        if call:
            msg = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_%06d" % seq, "type": "function",
                 "function": {"name": call[0],
                              "arguments": json.dumps(call[1])}}]}
            finish = "tool_calls"
        else:
            msg = {"role": "assistant",
                   "content": step["text"] if step else "ok"}
            finish = "stop"
        base = {"id": "chatcmpl-%06d" % seq, "created": int(time.time()),
                "model": body.get("model", "gpt-4.1")}
        usage = {"prompt_tokens": 10, "completion_tokens": 5,
                 "total_tokens": 15}
        if not body.get("stream"):
            self.send(200, dict(base, object="chat.completion", usage=usage,
                                choices=[{"index": 0, "message": msg,
                                          "finish_reason": finish}]))
            return
        delta = dict(msg)
        if call:
            delta["tool_calls"] = [dict(msg["tool_calls"][0], index=0)]
        chunk = dict(base, object="chat.completion.chunk")
        self.sse([
            (None, dict(chunk, choices=[{"index": 0, "delta": delta,
                                         "finish_reason": None}])),
            (None, dict(chunk, choices=[{"index": 0, "delta": {},
                                         "finish_reason": finish}],
                        usage=usage)),
            (None, "[DONE]"),
        ])


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=900)
    a = ap.parse_args()
    with open(a.script, encoding="utf-8") as f:
        script = json.load(f)
    srv = Server(("127.0.0.1", 0), Handler)
    srv.mock = Mock(script, a.log)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, a.port_file)
    # Never outlive a test that forgot to stop it.
    threading.Timer(a.lifetime, lambda: os._exit(0)).start()
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
