package extract

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/memory"
)

// SchemaName is the name of the response format the model must follow.
const SchemaName = "consolidation"

// Action is what an operation does to the store.
type Action string

// The actions the model may use.
const (
	Create    Action = "create"
	Update    Action = "update"
	Delete    Action = "delete"
	Reinforce Action = "reinforce"
)

// Actions are every action, as the schema's enum lists them.
var Actions = []Action{Create, Update, Delete, Reinforce}

// schema is the strict JSON schema of Response, its enums filled from Actions and memory.Types.
var schema = strings.NewReplacer("ACTIONS", enum(Actions), "TYPES", enum(append(slices.Clone(memory.Types), "")), "SCOPES", enum(memory.Scopes)).Replace(schemaTemplate)

// enum is a JSON array of the values.
func enum[T ~string](values []T) string {
	b, _ := json.Marshal(values)
	return strings.ReplaceAll(string(b), ",", ", ")
}

// schemaTemplate is the strict JSON schema of Response. Strict mode needs every property listed in
// "required" and "additionalProperties": false on every object; "type" allows "" for deletes.
const schemaTemplate = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["summary", "operations"],
  "properties": {
    "summary": {
      "type": "string",
      "description": "One paragraph: what changed and why."
    },
    "operations": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["action", "name", "type", "description", "body", "merged_from", "supersedes", "reason", "evidence", "scope"],
        "properties": {
          "action": {"type": "string", "enum": ACTIONS},
          "name": {"type": "string", "description": "Slug of the memory: lower-case words joined by hyphens."},
          "type": {"type": "string", "enum": TYPES, "description": "Empty for delete and reinforce."},
          "description": {"type": "string", "description": "One line that fits the index line with the name: at most 138 minus twice the name's length, in characters. Empty for delete and reinforce."},
          "body": {"type": "string", "description": "The whole new markdown body. Empty for delete and reinforce."},
          "merged_from": {"type": "array", "items": {"type": "string"}, "description": "Existing memories folded into this one."},
          "supersedes": {"type": "array", "items": {"type": "string"}, "description": "Existing memories this one contradicts."},
          "reason": {"type": "string", "description": "Why, in one sentence."},
          "evidence": {"type": "array", "items": {"type": "string"}, "description": "Session ids exactly as in the id attribute of the <session> elements."},
          "scope": {"type": "string", "enum": SCOPES, "description": "The store the memory belongs in: one of the scopes the request lists, this store's own when in doubt."}
        }
      }
    }
  }
}`

// Schema returns the response schema as JSON.
func Schema() json.RawMessage {
	return json.RawMessage(schema)
}
