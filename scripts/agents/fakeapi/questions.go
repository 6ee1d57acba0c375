package main

import (
	"slices"
	"strings"
)

// The scripted question: when the person's message asks to be asked which chart library to use,
// the script calls the CLI's structured-question tool, in that tool's own argument shape, with two
// options; the person picks one in the CLI (or types it, where the CLI takes the answer as the
// next message), and dreamd is to read the answer, with its question, as the person's decision.
const (
	// QuestionAsk is the phrase of the person's message that makes the script ask.
	QuestionAsk = "ask me which chart library"
	// ChartQuestion is the question the script asks, ChartOptions its options.
	ChartQuestion = "Which chart library should the dashboard use?"
	chartHeader   = "Charts"
)

// ChartOptions are the options of ChartQuestion, the one the person is to choose first.
var ChartOptions = []string{"Recharts", "Chart.js"}

// asksQuestion reports whether the person's message asks the script to ask its question.
func asksQuestion(lowerText string) bool { return strings.Contains(lowerText, QuestionAsk) }

// questionCall is a call of the structured-question tool the request offers.
func questionCall(tools []string) (action, bool) {
	labelled := func() []any { // options as {label, description}
		var out []any
		for _, o := range ChartOptions {
			out = append(out, map[string]any{"label": o, "description": "Draw the charts with " + o + "."})
		}
		return out
	}
	for _, name := range tools {
		switch name {
		case "AskUserQuestion": // Claude Code
			return action{tool: name, args: map[string]any{"questions": []any{map[string]any{
				"question": ChartQuestion, "header": chartHeader, "options": labelled(), "multiSelect": false}}}}, true
		case "request_user_input": // Codex CLI: each question has an id its answer is keyed by
			return action{tool: name, args: map[string]any{"questions": []any{map[string]any{
				"id": "chart_library", "header": chartHeader, "question": ChartQuestion, "options": labelled()}}}}, true
		case "ask_user": // Gemini CLI: a question has a type; answers are keyed by the question's index
			if slices.Contains(tools, "run_shell_command") {
				return action{tool: name, args: map[string]any{"questions": []any{map[string]any{
					"question": ChartQuestion, "header": chartHeader, "type": "choice", "options": labelled()}}}}, true
			}
			// Copilot CLI 1.0: a form (an MCP elicitation's requestedSchema), one field a question;
			// its older shape, {question, choices}, is refused ("This session uses the structured
			// ask_user format").
			return action{tool: name, args: map[string]any{"message": ChartQuestion, "requestedSchema": map[string]any{
				"properties": map[string]any{"chart_library": map[string]any{"type": "string", "title": ChartQuestion, "enum": ChartOptions}},
				"required":   []string{"chart_library"}}}}, true
		case "ask_user_question": // Qwen Code
			return action{tool: name, args: map[string]any{"questions": []any{map[string]any{
				"question": ChartQuestion, "header": chartHeader, "options": labelled(), "multiSelect": false}}}}, true
		case "question": // OpenCode, Kilo
			return action{tool: name, args: map[string]any{"questions": []any{map[string]any{
				"question": ChartQuestion, "header": chartHeader, "options": labelled()}}}}, true
		case "ask_question": // Cline CLI 3: one question, its options as strings
			return action{tool: name, args: map[string]any{"question": ChartQuestion, "options": ChartOptions}}, true
		case "ask_followup_question": // Cline's extension, Kilo's: the answer comes as the next message
			return action{tool: name, args: map[string]any{"question": ChartQuestion, "follow_up": ChartOptions}}, true
		}
	}
	return action{}, false
}
