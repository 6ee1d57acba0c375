package service

import (
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSystemdWord(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/usr/local/bin/dreamd", "/usr/local/bin/dreamd"},
		{"--config", "--config"},
		{"/opt/My Tools/dreamd", `"/opt/My Tools/dreamd"`},
		{"/srv/100%/x", "/srv/100%%/x"},
		{"/srv/$HOME/x", "/srv/$$HOME/x"},
		{`/a "b"`, `"/a \"b\""`},
		{`/a\b`, `"/a\\b"`},
		{"/it's", `"/it's"`},
		{"", `""`},
		{";", `";"`},
	}
	for _, tt := range tests {
		if got := systemdWord(tt.in); got != tt.want {
			t.Errorf("systemdWord(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// splitSystemd undoes systemdCommand the way systemd reads ExecStart=:
// split into words, unquote (C escapes), then resolve %% and $$.
func splitSystemd(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord, quoted, escaped := false, false, false
	for _, r := range line {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, word.String())
				word.Reset()
			}
			inWord = false
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quoted || escaped {
		return nil, errors.New("unterminated quote or escape")
	}
	if inWord {
		words = append(words, word.String())
	}
	for i, w := range words {
		words[i] = strings.NewReplacer("%%", "%", "$$", "$").Replace(w)
	}
	return words, nil
}

func FuzzSystemdCommand(f *testing.F) {
	f.Add("/usr/local/bin/dreamd", "/etc/dreamd/config.yaml")
	f.Add("/opt/My Tools/dreamd", `/srv/$cfg/50% "x".yaml`)
	f.Add(`/a\"b`, `;`)
	f.Fuzz(func(t *testing.T, binary, config string) {
		if !printable(binary) || !printable(config) {
			t.Skip("resolve rejects these")
		}
		args := []string{binary, "run", "--config", config}
		line := systemdCommand(args)
		got, err := splitSystemd(line)
		if err != nil || !slices.Equal(got, args) {
			t.Errorf("ExecStart=%s reads back as %q (%v), want %q", line, got, err, args)
		}
	})
}

// printable is what resolve lets through.
func printable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// decodePlist reads a plist's top dict; values become string, int, bool,
// []any or map[string]any.
func decodePlist(data string) (map[string]any, error) {
	d := xml.NewDecoder(strings.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "dict" {
			v, err := plistElement(d, se)
			if err != nil {
				return nil, err
			}
			return v.(map[string]any), nil
		}
	}
}

func plistElement(d *xml.Decoder, se xml.StartElement) (any, error) {
	switch se.Name.Local {
	case "string", "key":
		var s string
		err := d.DecodeElement(&s, &se)
		return s, err
	case "integer":
		var n int
		err := d.DecodeElement(&n, &se)
		return n, err
	case "true", "false":
		return se.Name.Local == "true", d.Skip()
	case "array", "dict":
		var items []any
		for {
			tok, err := d.Token()
			if err != nil {
				return nil, err
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				v, err := plistElement(d, tok)
				if err != nil {
					return nil, err
				}
				items = append(items, v)
			case xml.EndElement:
				if se.Name.Local == "array" {
					return items, nil
				}
				dict := map[string]any{}
				for i := 0; i+1 < len(items); i += 2 {
					dict[items[i].(string)] = items[i+1]
				}
				return dict, nil
			}
		}
	}
	return nil, errors.New("unexpected plist element " + se.Name.Local)
}

func plistArgs(t *testing.T, plist string) []string {
	t.Helper()
	dict, err := decodePlist(plist)
	if err != nil {
		t.Fatalf("plist does not parse: %v", err)
	}
	var args []string
	for _, a := range dict["ProgramArguments"].([]any) {
		args = append(args, a.(string))
	}
	return args
}

func TestPlistParses(t *testing.T) {
	tests := []struct {
		timer bool
		check func(t *testing.T, dict map[string]any)
	}{
		{false, func(t *testing.T, dict map[string]any) {
			keep, ok := dict["KeepAlive"].(map[string]any)
			if !ok || keep["SuccessfulExit"] != false {
				t.Errorf("KeepAlive = %v", dict["KeepAlive"])
			}
			if _, ok := dict["StartInterval"]; ok {
				t.Error("the daemon has a StartInterval")
			}
			if dict["ThrottleInterval"] != 30 { // a daemon failing at once is retried every 30s, not every 10s
				t.Errorf("ThrottleInterval = %v", dict["ThrottleInterval"])
			}
		}},
		{true, func(t *testing.T, dict map[string]any) {
			if dict["StartInterval"] != 3600 {
				t.Errorf("StartInterval = %v", dict["StartInterval"])
			}
			if _, ok := dict["KeepAlive"]; ok {
				t.Error("the timer has KeepAlive")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(variantName("launchd", tt.timer), func(t *testing.T) {
			o, _ := options(t, "launchd", tt.timer)
			o.Binary = "/opt/R&D <tools>/dreamd's"
			o.ConfigFile = `/etc/"dreamd"/a&b.yaml`
			res, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			plist := readAll(t, res.Written)[0]
			dict, err := decodePlist(plist)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := plistArgs(t, plist), o.args(); !slices.Equal(got, want) {
				t.Errorf("ProgramArguments = %q, want %q", got, want)
			}
			s := &session{o: o}
			if dict["Label"] != Label || dict["RunAtLoad"] != true || dict["ProcessType"] != "Background" ||
				dict["LowPriorityIO"] != true || dict["StandardOutPath"] != s.logPath() || dict["StandardErrorPath"] != s.logPath() {
				t.Errorf("plist = %v", dict)
			}
			if !exists(filepath.Dir(s.logPath())) {
				t.Error("the log directory was not created")
			}
			tt.check(t, dict)
		})
	}
}

func FuzzPlistArgs(f *testing.F) {
	f.Add("/opt/R&D <tools>/dreamd", "/etc/dreamd/config.yaml")
	f.Add("/x]]>y", `/"'`)
	f.Fuzz(func(t *testing.T, binary, config string) {
		o := Options{Binary: "/" + binary, ConfigFile: "/" + config}
		if !printable(o.Binary + o.ConfigFile) {
			t.Skip("resolve rejects these")
		}
		plist, err := render("launchd/dreamd.plist.tmpl", plistData{Label: Label, Args: o.args(), LogPath: "/l"})
		if err != nil {
			t.Fatal(err)
		}
		if got := plistArgs(t, string(plist)); !slices.Equal(got, o.args()) {
			t.Errorf("ProgramArguments = %q, want %q", got, o.args())
		}
	})
}

// TestUnitsVerify runs `systemd-analyze --user verify` on the rendered units where it is
// installed: a misspelt directive or a bad value fails here, not on the user's machine.
func TestUnitsVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("no systemd-analyze")
	}
	binary, err := exec.LookPath("true") // verify wants ExecStart= to be executable
	if err != nil {
		t.Skip("no true(1) to stand in for dreamd")
	}
	dir := t.TempDir()
	var units []string
	for _, unit := range []string{"dreamd.service", "dreamd-once.service", "dreamd.timer"} {
		data, err := render("systemd/"+unit, struct{ Command string }{systemdCommand([]string{binary, "run"})})
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, filepath.Join(dir, unit))
		if err := os.WriteFile(units[len(units)-1], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(analyze, append([]string{"--user", "verify"}, units...)...)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir(), "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
