package plans

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// CheckStatus is the outcome of a check block, as Terraform's JSON names
// it.
type CheckStatus byte

const (
	// CheckUnknown: some assertion could not be decided yet, because
	// what it refers to is known only after apply.
	CheckUnknown CheckStatus = iota
	// CheckPass: every assertion held.
	CheckPass
	// CheckFail: some assertion was false, or the scoped data source
	// could not be read.
	CheckFail
	// CheckError: an assertion could not be evaluated (an error was
	// reported).
	CheckError
)

// String returns the status as Terraform's JSON spells it.
func (s CheckStatus) String() string {
	switch s {
	case CheckUnknown:
		return "unknown"
	case CheckPass:
		return "pass"
	case CheckFail:
		return "fail"
	case CheckError:
		return "error"
	}
	return fmt.Sprintf("CheckStatus(%d)", byte(s))
}

// Worse returns whichever of s and o says more is wrong, which is how a
// check's status follows from its assertions' and a block's from its
// instances': an error outweighs a failure, which outweighs an undecided
// check, which outweighs a pass.
func (s CheckStatus) Worse(o CheckStatus) CheckStatus {
	if o.rank() > s.rank() {
		return o
	}
	return s
}

func (s CheckStatus) rank() int {
	switch s {
	case CheckUnknown:
		return 1
	case CheckFail:
		return 2
	case CheckError:
		return 3
	}
	return 0
}

// CheckResult is a check block's outcome in one module instance, as
// planning found it. Apply evaluates the check again (OpCheckAssertions)
// and reports its own result.
type CheckResult struct {
	Addr   addrs.AbsCheck
	Status CheckStatus
	// Problems are the failure messages: the error message of each false
	// assertion, and "summary: detail" of a failed scoped data source.
	Problems []string
}

type checkV1 struct {
	Module   string      `json:"module,omitempty"`
	Name     string      `json:"name"`
	Status   CheckStatus `json:"status"`
	Problems []string    `json:"problems,omitempty"`
}

func encodeChecks(cs []*CheckResult) []checkV1 {
	out := make([]checkV1, len(cs))
	for i, c := range cs {
		out[i] = checkV1{Module: c.Addr.Module.String(), Name: c.Addr.Check.Name, Status: c.Status, Problems: c.Problems}
	}
	return out
}

func decodeChecks(cs []checkV1) ([]*CheckResult, error) {
	out := make([]*CheckResult, len(cs))
	for i, c := range cs {
		m, err := addrs.ParseModuleInstanceStr(c.Module)
		if err != nil {
			return nil, fmt.Errorf("check %d: %w", i, err)
		}
		if c.Status > CheckError {
			return nil, fmt.Errorf("check %d: unknown status %d", i, c.Status)
		}
		out[i] = &CheckResult{Addr: addrs.Check{Name: c.Name}.Absolute(m), Status: c.Status, Problems: c.Problems}
	}
	return out, nil
}
