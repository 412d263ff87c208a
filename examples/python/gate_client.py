"""A hookgate client in raw JSON-RPC, standard library only: it registers a PreToolUse gate
that denies `rm -rf`, has the scripted model try `rm -rf build`, and prints what happened.
Usage: python3 gate_client.py [agent command ...]   (default: npx hookgate)"""
import json
import os
import subprocess
import sys

agent = subprocess.Popen(sys.argv[1:] or ["npx", "hookgate"], text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
last_id = 0


def send(message):
    agent.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    agent.stdin.flush()


def gate(params):
    """Callback "no-rm". The wire method is "_hooks/run", underscore and all."""
    command = str(params["input"]["tool_input"].get("command", ""))
    if "rm -rf" in command:
        return {"decision": "deny", "reason": "rm -rf is not allowed here"}
    return {}  # {} means continue: the other hooks and the permission step decide


def serve(message):
    """Answers what the agent asks of the client; prints what it shows the user."""
    method, params = message.get("method"), message.get("params", {})
    if method == "_hooks/run":
        send({"id": message["id"], "result": gate(params)})
    elif method == "$/cancel_request":
        pass  # {"requestId": id}: that _hooks/run is no longer awaited; drop its answer
    elif method == "session/request_permission":
        send({"id": message["id"],
              "result": {"outcome": {"outcome": "selected", "optionId": "reject_once"}}})
    elif method == "session/update":
        update = params["update"]
        if update["sessionUpdate"] == "agent_message_chunk":
            print(update["content"].get("text", ""), end="")
        elif update["sessionUpdate"] == "tool_call_update" and update.get("status") == "failed":
            print("tool call failed:", update["content"][0]["content"]["text"])
    elif "id" in message:  # any other request: say so, never leave it unanswered
        send({"id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
    # _hooks/event notifications (observers) need no answer.


def request(method, params):
    """Sends a request and serves the agent's own frames until its response arrives."""
    global last_id
    last_id += 1
    send({"id": last_id, "method": method, "params": params})
    # readline() has no line limit: a PreToolUse frame can be larger than 64 KiB.
    for line in agent.stdout:
        message = json.loads(line)
        if "method" in message:
            serve(message)
        elif message.get("id") == last_id:
            if "error" in message:
                sys.exit(f"{method} failed: {message['error']['message']}")
            return message["result"]
    sys.exit("the agent closed the connection")


request("initialize", {"protocolVersion": 1, "clientCapabilities": {
    "fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}})
hooks = {"PreToolUse": [{"matcher": "Bash", "hookCallbackIds": ["no-rm"], "timeout": 5}]}
session = request("session/new", {"cwd": os.getcwd(), "mcpServers": [],
                                   "_meta": {"hooks": hooks}})
prompt = '/tool Bash {"command": "rm -rf build"}'
result = request("session/prompt", {"sessionId": session["sessionId"],
                                    "prompt": [{"type": "text", "text": prompt}]})
print("\nstopReason:", result["stopReason"])
agent.stdin.close()
agent.wait()
