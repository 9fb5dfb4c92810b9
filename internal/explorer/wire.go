package explorer

import (
	"fmt"
	"strings"
)

// The page carries entries in a compact form, because a page of 10,000
// changes must stay under 5 MB: one-letter keys (a plan repeats them
// 10,000 times), and each line's indentation taken out of the text and
// written as one character of the indent string (a plan's text is a
// fifth leading spaces). Only the encoding differs: decoding gives back
// the model, each Text exactly as `cairn show` prints it. The page's
// script expands the keys (page.js, expand).

// indentBase is the character of no indentation; a line indented n
// spaces is written as indentBase+n. '0' keeps common depths printable
// and clear of the characters JSON or html/template escape.
const indentBase = '0'

// pageData is a model as the page carries it: its entries in their wire
// form, shadowing the model's own.
type pageData struct {
	*Model
	Changes []entryWire `json:"changes"`
	Drift   []entryWire `json:"drift,omitempty"`
	Outputs []entryWire `json:"outputs,omitempty"`
}

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

// dataOf is m as the page carries it.
func dataOf(m *Model) pageData {
	return pageData{Model: m, Changes: wireEntries(m.Changes), Drift: wireEntries(m.Drift), Outputs: wireEntries(m.Outputs)}
}

func wireEntries(es []Entry) []entryWire {
	if es == nil {
		return nil
	}
	out := make([]entryWire, len(es))
	for i, e := range es {
		w := entryWire{
			Addr: e.Addr, Module: e.Module, Provider: e.Provider, Type: e.Type, Action: e.Action, Tags: e.Tags,
			Reason: e.Reason, Replace: e.Replace, MovedFrom: e.MovedFrom, ImportID: e.ImportID, Deposed: e.Deposed,
			Deps: e.Deps, Kinds: e.Kinds,
		}
		lines := strings.Split(e.Text, "\n")
		indent := make([]rune, len(lines))
		for j, l := range lines {
			t := strings.TrimLeft(l, " ")
			indent[j] = indentBase + rune(len(l)-len(t))
			lines[j] = t
		}
		w.Text, w.Indent = strings.Join(lines, "\n"), string(indent)
		out[i] = w
	}
	return out
}

// model is the model the page data carries, for tests that read pages.
func (d pageData) model() (*Model, error) {
	m := *d.Model
	var err error
	for _, s := range []struct {
		to   *[]Entry
		from []entryWire
	}{{&m.Changes, d.Changes}, {&m.Drift, d.Drift}, {&m.Outputs, d.Outputs}} {
		if *s.to, err = modelEntries(s.from); err != nil {
			return nil, err
		}
	}
	return &m, nil
}

func modelEntries(ws []entryWire) ([]Entry, error) {
	if ws == nil {
		return nil, nil
	}
	out := make([]Entry, len(ws))
	for i, w := range ws {
		lines := strings.Split(w.Text, "\n")
		indent := []rune(w.Indent)
		if len(indent) != len(lines) {
			return nil, fmt.Errorf("%s: %d indentations for %d lines", w.Addr, len(indent), len(lines))
		}
		for j := range lines {
			lines[j] = strings.Repeat(" ", int(indent[j]-indentBase)) + lines[j]
		}
		out[i] = Entry{
			Addr: w.Addr, Module: w.Module, Provider: w.Provider, Type: w.Type, Action: w.Action, Tags: w.Tags,
			Reason: w.Reason, Replace: w.Replace, MovedFrom: w.MovedFrom, ImportID: w.ImportID, Deposed: w.Deposed,
			Deps: w.Deps, Kinds: w.Kinds, Text: strings.Join(lines, "\n"),
		}
	}
	return out, nil
}
