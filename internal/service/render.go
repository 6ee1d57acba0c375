package service

import (
	"bytes"
	"encoding/xml"
	"strings"
	"text/template"

	"github.com/dreamd/dreamd"
)

// render fills in one of the embedded templates, named by its path under
// the module root (systemd/dreamd.service, launchd/dreamd.plist.tmpl, …).
func render(name string, data any) ([]byte, error) {
	t, err := template.New("").Funcs(template.FuncMap{"xml": xmlEscape}).
		Option("missingkey=error").ParseFS(dreamd.Templates, name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, baseName(name), data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func baseName(name string) string { return name[strings.LastIndex(name, "/")+1:] }

func xmlEscape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // writes to a Builder cannot fail
	return b.String()
}

// systemdCommand renders args as an ExecStart= value. systemd expands %
// specifiers and $VARIABLES anywhere on the line, so those are doubled; a
// word with blanks, quotes or backslashes is double-quoted with C escapes.
func systemdCommand(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = systemdWord(a)
	}
	return strings.Join(words, " ")
}

func systemdWord(a string) string {
	a = strings.NewReplacer("%", "%%", "$", "$$").Replace(a)
	if a != "" && a != ";" && !strings.ContainsAny(a, " \t\"'\\") {
		return a
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(a) + `"`
}
