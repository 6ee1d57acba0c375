package transcript

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// The person's answers to an agent's structured questions are their words, and often a decision
// ("Which chart library should the dashboard use?" → "Recharts"), but every agent records them as
// a tool's result, which never becomes a memory. Each adapter whose agent asks such questions
// turns a recorded answer into one user turn in the shape Claude Code's gives (answerLabel, then
// "question"="answer" pairs), the question kept beside its answer: "Recharts" alone decides
// nothing. Only what the person chose or typed is written: an option the agent offered and the
// person did not choose is not their word, and a question cancelled, dismissed or answered by
// the CLI itself (a headless run) gives nothing.

// questionAnswer is one question and the person's answer to it.
type questionAnswer struct{ question, answer string }

// maxAnswers bounds the pairs of one answers turn (agents ask one to four questions at a time).
const maxAnswers = 16

// answersText is the user turn of the person's answers, "" when no answer holds any text.
func answersText(pairs []questionAnswer) string {
	var out []string
	for _, p := range pairs {
		q, a := oneLine(prefix(p.question, maxToolLine*2)), oneLine(prefix(p.answer, maxToolLine*2))
		if q == "" || a == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%q=%q", q, a))
		if len(out) == maxAnswers {
			break
		}
	}
	if len(out) == 0 {
		return ""
	}
	return answerLabel + " " + strings.Join(out, ", ")
}

// answerStrings joins an answer given as a string or a list of strings (a multi-select, or
// Codex CLI's chosen label and the note the person typed), "" for anything else.
func answerStrings(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	var parts []string
	v.ForEach(func(_, s gjson.Result) bool {
		if s.Type == gjson.String && strings.TrimSpace(s.Str) != "" {
			parts = append(parts, strings.TrimSpace(s.Str))
		}
		return len(parts) < maxAnswers
	})
	return strings.Join(parts, ", ")
}

// codexAnswers reads Codex CLI's request_user_input: its call's arguments
// {"questions": [{"id", "header", "question", "options": [{"label", "description"}]}]} and the
// output the CLI returns once the person has answered, {"answers": {"<id>": {"answers":
// ["<label>", "user_note: <typed>"]}}} (codex-rs's RequestUserInputResponse). A question the
// person skipped has no entry; a request the CLI refused ("request_user_input is unavailable in
// Default mode", "… is not supported in exec mode") is not JSON and gives nothing.
func codexAnswers(arguments, output string) string {
	args := gjson.Parse(jsonString(arguments))
	if arguments != "" && arguments[0] == '{' {
		args = gjson.Parse(arguments)
	}
	out := jsonString(output)
	if output != "" && output[0] == '{' { // an output item whose output is an object
		out = gjson.Parse(output).Get("content").Str
	}
	if !gjson.Valid(out) {
		return ""
	}
	answers := gjson.Get(out, "answers")
	if !answers.IsObject() {
		return ""
	}
	var pairs []questionAnswer
	args.Get("questions").ForEach(func(_, q gjson.Result) bool {
		a := answers.Get(gjson.Escape(q.Get("id").Str) + ".answers")
		var parts []string
		a.ForEach(func(_, s gjson.Result) bool {
			text := strings.TrimSpace(strings.TrimPrefix(s.Str, codexNote))
			if s.Type == gjson.String && text != "" {
				parts = append(parts, text)
			}
			return true
		})
		pairs = append(pairs, questionAnswer{question: q.Get("question").Str, answer: strings.Join(parts, ", ")})
		return len(pairs) < maxAnswers
	})
	return answersText(pairs)
}

// codexNote prefixes what the person typed beside (or instead of) an option in Codex CLI's
// request_user_input answers.
const codexNote = "user_note:"

// geminiAnswers reads a Gemini CLI ask_user call, args {"questions": [{"question", "header",
// "type": "choice"|"text"|"yesno", "options"}]} with its result, whose output is
// {"answers": {"<question's index>": "<answer>"}} once the person has answered. A dismissed
// dialog ("User dismissed ask_user dialog without answering."), an empty submission or a
// cancelled call gives nothing.
func geminiAnswers(call gjson.Result) string {
	if call.Get("name").Str != "ask_user" || call.Get("status").Str != "success" {
		return ""
	}
	out := call.Get("result.0.functionResponse.response.output").Str
	if !gjson.Valid(out) {
		return ""
	}
	answers := gjson.Get(out, "answers")
	if !answers.IsObject() {
		return ""
	}
	questions := call.Get("args.questions").Array()
	var pairs []questionAnswer
	answers.ForEach(func(key, a gjson.Result) bool {
		var i int
		if _, err := fmt.Sscanf(key.Str, "%d", &i); err != nil || i < 0 || i >= len(questions) {
			return true
		}
		pairs = append(pairs, questionAnswer{question: questions[i].Get("question").Str, answer: answerStrings(a)})
		return len(pairs) < maxAnswers
	})
	return answersText(pairs)
}

// qwenAnswers reads a Qwen Code ask_user_question result: the tool_result record's
// toolCallResult.resultDisplay, {"type": "ask_user_question_answers", "answers": [{"question",
// "answer"}]} once the person has answered. A declined question and a headless run (Qwen Code
// answers there that it cannot ask) display only a string, and give nothing.
func qwenAnswers(r gjson.Result) string {
	display := r.Get("toolCallResult.resultDisplay")
	if display.Get("type").Str != "ask_user_question_answers" {
		return ""
	}
	var pairs []questionAnswer
	display.Get("answers").ForEach(func(_, a gjson.Result) bool {
		pairs = append(pairs, questionAnswer{question: a.Get("question").Str, answer: answerStrings(a.Get("answer"))})
		return len(pairs) < maxAnswers
	})
	return answersText(pairs)
}

// clineQuestions are the ask_question calls of a Cline CLI 3 session, by tool_use id, until their
// results. The result's content is the option the person picked or the text they typed; but a
// headless run (`cline "task"`) has nobody to ask, and the CLI answers its own question with the
// first option, which is nobody's word. The sidecar says "interactive": false for a session begun
// headless, and keeps saying it when the session is resumed in the terminal UI (`cline --id`,
// where the person does answer; seen with Cline CLI 3.0.65), so in such a session only an answer
// other than the first option is known to be the person's.
type clineQuestions struct {
	headless bool
	asked    map[string]clineQuestion // by tool_use id
}

type clineQuestion struct{ text, first string }

// note keeps the questions an assistant message's content asks.
func (q *clineQuestions) note(content gjson.Result) {
	content.ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").Str == "tool_use" && b.Get("name").Str == "ask_question" {
			if q.asked == nil {
				q.asked = map[string]clineQuestion{}
			}
			q.asked[b.Get("id").Str] = clineQuestion{text: b.Get("input.question").Str, first: b.Get("input.options.0").Str}
		}
		return true
	})
}

// answers returns the person's answers in a user message's content, "" when it holds none.
func (q *clineQuestions) answers(content gjson.Result) string {
	var pairs []questionAnswer
	content.ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").Str != "tool_result" {
			return true
		}
		id := b.Get("tool_use_id").Str
		asked, ok := q.asked[id]
		if !ok {
			return true
		}
		delete(q.asked, id)
		answer := strings.TrimSpace(partsText(b.Get("content").Raw, maxToolLine*2))
		if b.Get("is_error").Bool() || b.Get("isError").Bool() || q.headless && answer == strings.TrimSpace(asked.first) {
			return true
		}
		pairs = append(pairs, questionAnswer{question: asked.text, answer: answer})
		return true
	})
	return answersText(pairs)
}

// copilotHumanResponse is the event Copilot CLI records when the person answers its ask_user
// tool (and other requests of the person: responseKind says which).
const copilotHumanResponse = "human_response.recorded"

// copilotAnswers reads a Copilot CLI human_response.recorded event of an ask_user call (1.0: a
// form, an MCP elicitation's requestedSchema): {"actor": "human_response", "response":
// {"responseKind": "ask_user", "content": {"<field>": "<answer>"}, "message", "requestedSchema":
// {"properties": {"<field>": {"title", "enum"}}}}}. Each field's question is its title, else the
// message; a form declined or cancelled has no content and gives nothing.
func copilotAnswers(data gjson.Result) string {
	r := data.Get("response")
	if r.Get("responseKind").Str != "ask_user" || data.Get("actor").Exists() && data.Get("actor").Str != "human_response" {
		return ""
	}
	message := r.Get("message").Str
	content := r.Get("content")
	if content.Type == gjson.String { // a free answer to a one-question form
		return answersText([]questionAnswer{{question: message, answer: content.Str}})
	}
	var pairs []questionAnswer
	content.ForEach(func(field, a gjson.Result) bool {
		question := r.Get("requestedSchema.properties." + gjson.Escape(field.Str) + ".title").Str
		if question == "" {
			question = message
		}
		answer := answerStrings(a)
		if a.Type == gjson.True || a.Type == gjson.False || a.Type == gjson.Number {
			answer = a.Raw
		}
		pairs = append(pairs, questionAnswer{question: question, answer: answer})
		return len(pairs) < maxAnswers
	})
	return answersText(pairs)
}

// opencodeAnswers reads an OpenCode (or Kilo) question tool part: its state's input
// {"questions": [{"question", "header", "options": [{"label", "description"}], "multiple"}]} and,
// once the person has answered, its metadata {"answers": [["<label>", …], …]}, one list per
// question in order (the output says the same, with "Unanswered" for an empty list). A question
// left unanswered, a dismissed or failed call, gives nothing.
func opencodeAnswers(part gjson.Result) string {
	state := part.Get("state")
	if part.Get("tool").Str != "question" || state.Get("status").Str != "completed" || part.Get("synthetic").Bool() {
		return ""
	}
	answers := state.Get("metadata.answers").Array()
	var pairs []questionAnswer
	state.Get("input.questions").ForEach(func(i, q gjson.Result) bool {
		if n := int(i.Int()); n < len(answers) {
			pairs = append(pairs, questionAnswer{question: q.Get("question").Str, answer: answerStrings(answers[n])})
		}
		return len(pairs) < maxAnswers
	})
	return answersText(pairs)
}

// clineFollowupPrefix opens the result of the Cline extension's ask_followup_question (and its
// forks', Kilo's), which comes back as the person's next message: "[ask_followup_question for
// '<question>'] Result:\n<answer>\n<what they picked or typed>\n</answer>".
const clineFollowupPrefix = "[ask_followup_question for '"

// clineFollowupAnswer reads such a result as the person's answer beside the question its header
// quotes; ok is false for any other text (read as before, clineTypedText).
func clineFollowupAnswer(text string) (answer string, ok bool) {
	rest, ok := strings.CutPrefix(text, clineFollowupPrefix)
	if !ok {
		return "", false
	}
	question, body, ok := strings.Cut(prefix(rest, 64<<10), "'"+clineResultMark)
	if !ok {
		return "", false
	}
	answers := tagContents(prefix(body, 16*maxUserText), "answer")
	if len(answers) != 1 {
		return "", false
	}
	typed := promptFree(injectedFree(strings.TrimSpace(answers[0]), clineInjectedTags))
	if typed == "" || strings.Contains(typed, "\n") {
		return "", false // nothing, or more than an answer (read as the person's words, as before)
	}
	return answersText([]questionAnswer{{question: question, answer: typed}}), true
}
