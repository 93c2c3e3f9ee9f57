#!/usr/bin/env python3
"""Reads the mock model's request log (mock_model.py) for the agent tests.

  requests.py LOG seen STEP TEXT   exit 0 when a conversation request served
                                   as STEP carries TEXT in what the client
                                   added since the model's last turn
  requests.py LOG count STEP       how many conversation requests were
                                   served as STEP
  requests.py LOG dump             one line per request, for diagnostics
"""

import json
import sys


def entries(log):
    try:
        with open(log, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    log, what = argv[1], argv[2]
    reqs = entries(log)
    main_reqs = [e for e in reqs if e.get("main")]
    if what == "seen":
        step, text = int(argv[3]), argv[4]
        for e in main_reqs:
            if e.get("step") == step and text in json.dumps(
                    e.get("tail"), ensure_ascii=False):
                return 0
        return 1
    if what == "count":
        step = int(argv[3])
        print(sum(1 for e in main_reqs if e.get("step") == step))
        return 0
    if what == "dump":
        for e in reqs:
            tail = json.dumps(e.get("tail"), ensure_ascii=False)
            if len(tail) > 400:
                tail = tail[:200] + " ... " + tail[-200:]
            print("#%s %s %s main=%s step=%s answer=%s tail=%s" % (
                e.get("seq"), e.get("method"), e.get("path"), e.get("main"),
                e.get("step"), json.dumps(e.get("answer")), tail))
        return 0
    sys.stderr.write("requests.py: unknown query %r\n" % what)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
