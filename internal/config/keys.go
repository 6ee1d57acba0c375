package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
)

// unknownKeys says what is wrong with keys the configuration does not have: for each, the known key
// it is a typo of, else the keys that can stand where it is. It cites no file of the source tree:
// an installed dreamd has none.
func unknownKeys(keys []string) string {
	known := keyPaths()
	var hints []string
	for _, k := range keys {
		path := indexFree(k)
		if near := closest(path, known); near != "" {
			hints = append(hints, fmt.Sprintf("did you mean %s?", near))
			continue
		}
		parent := ""
		if i := strings.LastIndex(path, "."); i >= 0 {
			parent = path[:i]
		}
		prefix := ""
		if parent != "" {
			prefix = parent + "."
		}
		var siblings []string
		for _, p := range known {
			if rest, ok := strings.CutPrefix(p, prefix); ok {
				if name, _, _ := strings.Cut(rest, "."); !slices.Contains(siblings, name) {
					siblings = append(siblings, name)
				}
			}
		}
		where := "at the top level"
		if parent != "" {
			where = "under " + parent
		}
		hints = append(hints, fmt.Sprintf("the keys %s are %s", where, strings.Join(siblings, ", ")))
	}
	return "unknown key (" + strings.Join(hints, "; ") + ")"
}

// indexFree drops list indexes from a key path: sources[1].kindd is sources.kindd.
func indexFree(key string) string {
	for {
		i := strings.IndexByte(key, '[')
		j := strings.IndexByte(key, ']')
		if i < 0 || j < i {
			return key
		}
		key = key[:i] + key[j+1:]
	}
}

// keyPaths lists every key of the configuration by its dotted path (a list's elements under the
// list's own name: sources.kind), from the struct tags of Config.
func keyPaths() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == reflect.TypeFor[time.Duration]() {
			return
		}
		for f := range t.Fields() {
			tag, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
			if tag == "-" {
				continue
			}
			if tag == "" && strings.Contains(opts, "squash") {
				walk(f.Type, prefix)
				continue
			}
			if tag == "" {
				continue
			}
			name := joinKey(prefix, tag)
			out = append(out, name)
			walk(f.Type, name)
		}
	}
	walk(reflect.TypeFor[Config](), "")
	return out
}

// writableDir reports why dreamd could not write its state under dir: dir, or the nearest of its
// parents that exists, must be a directory the user may write.
func writableDir(dir string) error {
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			if filepath.Dir(p) == p {
				return nil
			}
			continue
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s cannot be made: %s is not a directory", dir, p)
		}
		if !canWrite(p) {
			if p == dir {
				return fmt.Errorf("%s is not writable (permission denied): choose a directory you can write, or fix its permissions", dir)
			}
			return fmt.Errorf("%s cannot be made: %s is not writable (permission denied)", dir, p)
		}
		return nil
	}
}
