package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMCPLine bounds one JSON-RPC message read from the client: a longer line is refused, never
// buffered whole (the SDK's stdio transport has the same bound, but ends the session on it).
const maxMCPLine = 16 << 20

// lineTransport is MCP's stdio transport (one JSON-RPC message per line) with a guard in front
// of the SDK: the SDK's own transport ends the session on the first line it cannot decode, so a
// malformed line, a batch or an oversized request from one confused client would kill the server
// for the agent. Here every line is checked before the SDK sees it; what JSON-RPC says to answer
// with an error is answered (-32700 parse error, -32600 invalid request) and the server reads on.
type lineTransport struct {
	in      io.ReadCloser
	out     io.Writer
	maxLine int
}

func newLineTransport(in io.ReadCloser, out io.Writer) *lineTransport {
	return &lineTransport{in: in, out: out, maxLine: maxMCPLine}
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{in: t.in, out: t.out, incoming: make(chan readResult), closed: make(chan struct{}),
		pending: map[string]bool{}, answered: make(chan struct{}, 1)}
	go c.readLoop(bufio.NewReaderSize(t.in, 64<<10), t.maxLine)
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// lineConn is one session over a lineTransport.
type lineConn struct {
	in        io.Closer
	out       io.Writer
	writeMu   sync.Mutex
	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once

	// pending are the ids of the requests handed to the SDK and not answered yet: at the end of
	// the input the session ends only once they are (a client that writes its requests and closes
	// its end, as a script does, still gets every answer).
	pendingMu sync.Mutex
	pending   map[string]bool
	answered  chan struct{} // signalled when a pending request is answered
}

// drainWait bounds how long the end of the input waits for answers still being worked out.
const drainWait = 30 * time.Second

// readLoop reads the client's lines until the input ends, handing the SDK only messages it can
// decode and answering the rest itself. It runs in its own goroutine so that Close unblocks Read
// even while the read of standard input cannot be interrupted.
func (c *lineConn) readLoop(r *bufio.Reader, maxLine int) {
	for {
		line, tooLong, err := readBoundedLine(r, maxLine)
		var msg jsonrpc.Message
		switch {
		case tooLong:
			c.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes refused", maxLine))
		case len(line) > 0:
			msg = c.check(line)
		}
		if msg != nil {
			c.track(msg)
			if !c.deliver(readResult{msg: msg}) {
				return
			}
		}
		if err != nil {
			c.drain()
			c.deliver(readResult{err: err})
			return
		}
	}
}

// track records a request the SDK is to answer, and forgets one the client cancelled (the SDK
// does not answer those).
func (c *lineConn) track(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	if req.ID.IsValid() {
		c.pending[fmt.Sprint(req.ID.Raw())] = true
		return
	}
	if req.Method == "notifications/cancelled" {
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			delete(c.pending, fmt.Sprint(p.RequestID))
		}
	}
}

// answer forgets a request once its response is written.
func (c *lineConn) answer(msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	c.pendingMu.Lock()
	delete(c.pending, fmt.Sprint(resp.ID.Raw()))
	c.pendingMu.Unlock()
	select {
	case c.answered <- struct{}{}:
	default:
	}
}

// drain waits until every request handed to the SDK is answered, the connection is closed, or
// drainWait has passed.
func (c *lineConn) drain() {
	deadline := time.After(drainWait)
	for {
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return
		case <-deadline:
			return
		}
	}
}

// deliver hands a message to Read; false once the connection is closed.
func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// check decodes one line, answering it itself when it is not one JSON-RPC message: nil then.
func (c *lineConn) check(line []byte) jsonrpc.Message {
	if !json.Valid(line) {
		c.refuse(nil, jsonrpc.CodeParseError, "Parse error")
		return nil
	}
	if line[0] == '[' {
		c.refuseBatch(line)
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.refuse(requestID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		return nil
	}
	return msg
}

// refuseBatch answers a JSON-RPC batch: MCP dropped batching in its 2025-06-18 revision and the
// clients send none, so each request in it gets an error of its own, in one array as JSON-RPC
// answers a batch (an empty batch is one error; a batch of notifications gets no answer).
func (c *lineConn) refuseBatch(line []byte) {
	var batch []json.RawMessage
	if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
		c.refuse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch")
		return
	}
	var answers []json.RawMessage
	for _, raw := range batch {
		id := requestID(raw)
		if id == nil {
			continue // a notification or a response: nothing to answer
		}
		answers = append(answers, errorResponse(id, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send each message on a line of its own"))
	}
	if len(answers) == 0 {
		return
	}
	data, _ := json.Marshal(answers)
	c.writeLine(data)
}

// requestID is the id of a message that is a request (has a method and a string or number id),
// for the error that answers it; nil when it is none (JSON-RPC answers those with a null id, or
// not at all in a batch).
func requestID(raw []byte) json.RawMessage {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Method == nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

func errorResponse(id json.RawMessage, code int64, message string) json.RawMessage {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	return data
}

// refuse answers a line the SDK never sees.
func (c *lineConn) refuse(id json.RawMessage, code int64, message string) {
	c.writeLine(errorResponse(id, code, message))
}

// writeLine writes one message and its newline in a single write, never interleaved with another.
func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// readBoundedLine reads one line without its newline; a line longer than max is read to its end
// and dropped (tooLong), so one huge request costs no more memory than max. err is the reader's
// error (io.EOF at the end), with the last unterminated line returned beside it.
func readBoundedLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), tooLong, err
	}
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case r := <-c.incoming:
		return r.msg, r.err
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	err = c.writeLine(data)
	c.answer(msg)
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.in.Close()
	})
	return err
}

// SessionID implements mcp.Connection: stdio has one session and no id.
func (c *lineConn) SessionID() string { return "" }
