package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// projectFlag collects repeated -project LABEL=DIR flags.
type projectFlag [][2]string

func (p *projectFlag) String() string { return fmt.Sprint(*p) }

func (p *projectFlag) Set(v string) error {
	label, dir, ok := strings.Cut(v, "=")
	if !ok {
		return errors.New("want LABEL=DIR")
	}
	*p = append(*p, [2]string{label, dir})
	return nil
}

// paths checks Claude Code projects whose folder names are not plain: for each, dreamd reads its
// session into the store in the folder Claude Code keeps the project in (the folder its transcript
// is in, the one whose memory/ Claude Code loads), and the memory reaches its next request.
//
//	agentcheck paths -sessions FILE -project LABEL=DIR[@NEXT_LIST] ...
func paths(args []string) error {
	fs := newFlags("paths")
	sessionsFile := fs.String("sessions", "", "dreamd sessions --format json")
	var projects projectFlag
	fs.Var(&projects, "project", "LABEL=DIR@FILE: a project, and the file listing its next session's requests")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var rep sessionsReport
	b, err := os.ReadFile(*sessionsFile)
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", *sessionsFile, err)
	}
	c := checker{prefix: "claude paths:"}
	c.check("every session is read into the folder its transcript is in (a moved project's too)", func() error {
		var errs []error
		for _, s := range rep.Sessions {
			if s.Kind != "claude" || strings.Contains(s.Path, "/subagents/") {
				continue
			}
			if want := filepath.Join(filepath.Dir(s.Path), "memory"); s.Store != want {
				errs = append(errs, fmt.Errorf("%s: store in %s, transcript in %s", s.ID,
					filepath.Base(filepath.Dir(s.Store)), filepath.Base(filepath.Dir(want))))
			}
		}
		return errors.Join(errs...)
	}())
	for _, p := range projects {
		label := p[0]
		dir, next, _ := strings.Cut(p[1], "@")
		c := checker{prefix: "claude paths: " + label + ":"}
		c.check("the session is read into the folder Claude Code keeps the project in", func() error {
			found := false
			for _, s := range rep.Sessions {
				if s.Kind != "claude" || s.Project != dir {
					continue
				}
				found = true
				if want := filepath.Join(filepath.Dir(s.Path), "memory"); s.Store != want {
					return fmt.Errorf("store %s, but Claude Code keeps the project in %s", filepath.Base(filepath.Dir(s.Store)), filepath.Base(filepath.Dir(want)))
				}
			}
			if !found {
				var why []string
				for _, s := range rep.Skipped {
					why = append(why, filepath.Base(s.Path)+": "+s.Reason)
				}
				return fmt.Errorf("no session of the project listed (skipped: %q)", why)
			}
			return nil
		}())
		if next == "" {
			continue
		}
		bodies, err := readBodies(next)
		if err != nil {
			return err
		}
		c.check("the memory reaches its next request", func() error {
			for _, body := range bodies {
				if strings.Contains(body, messages["next"]) && shellTool.MatchString(body) {
					if strings.Contains(strings.ToLower(body), strings.ToLower(memoryText)) {
						return nil
					}
					return fmt.Errorf("%q is not in the request", memoryText)
				}
			}
			return fmt.Errorf("none of the %d requests carries %q", len(bodies), messages["next"])
		}())
	}
	return nil
}
