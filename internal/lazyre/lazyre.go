// Package lazyre is a regular expression compiled on first use. dreamd's text passes hold a few
// hundred between them; compiled at package init they cost every command, used or not, about 10 ms
// and 4 MB, and a quiet hourly pass needs none of them.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use; its methods are regexp.Regexp's.
type Regexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

// New returns expr, to be compiled (with regexp.MustCompile) when first used.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

func (l *Regexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *Regexp) MatchString(s string) bool            { return l.get().MatchString(s) }
func (l *Regexp) FindString(s string) string           { return l.get().FindString(s) }
func (l *Regexp) FindStringIndex(s string) []int       { return l.get().FindStringIndex(s) }
func (l *Regexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }
func (l *Regexp) SubexpIndex(name string) int          { return l.get().SubexpIndex(name) }
func (l *Regexp) Split(s string, n int) []string       { return l.get().Split(s, n) }
func (l *Regexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *Regexp) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }
func (l *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *Regexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
func (l *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}
