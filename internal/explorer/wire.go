package explorer

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The page carries entries in a compact form, because a page of 10,000
// changes must stay under 5 MB: one-letter keys (a plan repeats them
// 10,000 times), and each line's indentation taken out of the text and
// written as one character of the indent string (a plan's text is a
// fifth leading spaces). Only the encoding differs: decoding gives back
// the Entry, its Text exactly as `cairn show` prints it. The page's
// script expands the keys (page.js, expand).

// indentBase is the character of no indentation; a line indented n
// spaces is written as indentBase+n. '0' keeps common depths printable
// and clear of the characters JSON or html/template escape.
const indentBase = '0'

// entryWire is an Entry as the page carries it.
type entryWire struct {
	Addr      string   `json:"a"`
	Module    int      `json:"m"`
	Provider  int      `json:"p"`
	Type      string   `json:"t,omitempty"`
	Action    string   `json:"x"`
	Tags      []string `json:"g,omitempty"`
	Reason    string   `json:"r,omitempty"`
	Replace   []string `json:"f,omitempty"`
	MovedFrom string   `json:"mf,omitempty"`
	ImportID  string   `json:"im,omitempty"`
	Deposed   string   `json:"dk,omitempty"`
	Deps      []string `json:"d,omitempty"`
	Text      string   `json:"s"`
	Kinds     string   `json:"k"`
	Indent    string   `json:"i"`
}

// MarshalJSON writes the entry as the page carries it.
func (e Entry) MarshalJSON() ([]byte, error) {
	w := entryWire{
		Addr: e.Addr, Module: e.Module, Provider: e.Provider, Type: e.Type, Action: e.Action, Tags: e.Tags,
		Reason: e.Reason, Replace: e.Replace, MovedFrom: e.MovedFrom, ImportID: e.ImportID, Deposed: e.Deposed,
		Deps: e.Deps, Kinds: e.Kinds,
	}
	lines := strings.Split(e.Text, "\n")
	indent := make([]rune, len(lines))
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		indent[i] = indentBase + rune(len(l)-len(t))
		lines[i] = t
	}
	w.Text, w.Indent = strings.Join(lines, "\n"), string(indent)
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var w entryWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	lines := strings.Split(w.Text, "\n")
	indent := []rune(w.Indent)
	if len(indent) != len(lines) {
		return fmt.Errorf("%s: %d indentations for %d lines", w.Addr, len(indent), len(lines))
	}
	for i := range lines {
		lines[i] = strings.Repeat(" ", int(indent[i]-indentBase)) + lines[i]
	}
	*e = Entry{
		Addr: w.Addr, Module: w.Module, Provider: w.Provider, Type: w.Type, Action: w.Action, Tags: w.Tags,
		Reason: w.Reason, Replace: w.Replace, MovedFrom: w.MovedFrom, ImportID: w.ImportID, Deposed: w.Deposed,
		Deps: w.Deps, Kinds: w.Kinds, Text: strings.Join(lines, "\n"),
	}
	return nil
}
