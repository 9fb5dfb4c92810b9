package command

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/testfiles"
)

// JUnit XML, as Terraform's -junit-xml writes it: one testsuite per
// file, one testcase per run block; a failed run has a failure element,
// an errored one an error element, a skipped one skipped.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// writeJUnit writes results to path (relative to dir).
func writeJUnit(path, dir string, results []*testfiles.FileResult) error {
	doc := junitSuites{}
	for _, f := range results {
		s := junitSuite{Name: f.File.Name, Tests: len(f.Runs)}
		for _, r := range f.Runs {
			c := junitCase{Name: r.Run.Name, Classname: f.File.Name}
			if r.Status != testfiles.Skip {
				c.Time = fmt.Sprintf("%.3f", r.Elapsed.Seconds())
			}
			text := diagText(r.Diags)
			switch r.Status {
			case testfiles.Skip:
				s.Skipped++
				c.Skipped = &junitMessage{}
			case testfiles.Fail:
				s.Failures++
				c.Failure = &junitMessage{Message: fmt.Sprintf("%d of %d assertions failed", failedAsserts(r), len(r.Run.Asserts)), Body: text}
			case testfiles.Error:
				s.Errors++
				c.Error = &junitMessage{Message: "Encountered an error", Body: text}
			}
			s.Cases = append(s.Cases, c)
		}
		doc.Suites = append(doc.Suites, s)
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(out, '\n')...), 0o644)
}

func failedAsserts(r *testfiles.RunResult) int {
	n := 0
	for _, d := range r.Diags {
		if d.Summary == "Test assertion failed" {
			n++
		}
	}
	return n
}

// diagText is the diagnostics as plain lines for the report.
func diagText(ds diags.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		sev := "Error"
		if d.Severity == diags.Warning {
			sev = "Warning"
		}
		fmt.Fprintf(&b, "%s: %s", sev, d.Summary)
		if d.Subject != nil {
			fmt.Fprintf(&b, "\n\n  on %s line %d", d.Subject.Filename, d.Subject.Start.Line)
		}
		if d.Detail != "" {
			fmt.Fprintf(&b, "\n\n%s", d.Detail)
		}
		b.WriteString("\n\n")
	}
	return strings.TrimSpace(b.String())
}
