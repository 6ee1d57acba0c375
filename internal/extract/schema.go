package extract

import "encoding/json"

// SchemaName is the name of the response format the model must follow.
const SchemaName = "consolidation"

// The actions and memory types the model may use; the schema's enums list the same.
var (
	actions     = []string{"create", "update", "delete", "reinforce"}
	memoryTypes = []string{"user", "feedback", "project", "reference"}
)

// schema is the strict JSON schema of Response. Strict mode needs every property listed in
// "required" and "additionalProperties": false on every object; "type" allows "" for deletes.
const schema = `{
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
        "required": ["action", "name", "type", "description", "body", "merged_from", "supersedes", "reason", "evidence"],
        "properties": {
          "action": {"type": "string", "enum": ["create", "update", "delete", "reinforce"]},
          "name": {"type": "string", "description": "Slug of the memory: lower-case words joined by hyphens."},
          "type": {"type": "string", "enum": ["user", "feedback", "project", "reference", ""], "description": "Empty for delete and reinforce."},
          "description": {"type": "string", "description": "One line that fits the index line with the name: at most 138 minus twice the name's length, in characters. Empty for delete and reinforce."},
          "body": {"type": "string", "description": "The whole new markdown body. Empty for delete and reinforce."},
          "merged_from": {"type": "array", "items": {"type": "string"}, "description": "Existing memories folded into this one."},
          "supersedes": {"type": "array", "items": {"type": "string"}, "description": "Existing memories this one contradicts."},
          "reason": {"type": "string", "description": "Why, in one sentence."},
          "evidence": {"type": "array", "items": {"type": "string"}, "description": "Session ids exactly as in the id attribute of the <session> elements."}
        }
      }
    }
  }
}`

// Schema returns the response schema as JSON.
func Schema() json.RawMessage {
	return json.RawMessage(schema)
}
