package render

import (
	"fmt"
	"io"
	"strconv"
)

// PlanNextStep writes what `terraform plan` prints after the plan itself: a
// rule, then where the plan was saved and the command that applies it, or,
// when planPath is empty, the note that an unsaved plan may not be what
// apply does. program names the command to suggest; "terraform" gives
// Terraform's text exactly.
func PlanNextStep(w io.Writer, planPath, program string, opts Options) error {
	var text string
	if planPath == "" {
		text = fmt.Sprintf("\nNote: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly these actions if you run \"%s apply\" now.", program)
	} else {
		text = fmt.Sprintf("\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    %s apply %s", planPath, program, strconv.Quote(planPath))
	}
	_, err := io.WriteString(w, HorizontalRule(opts)+"\n"+wordWrap(text, opts.width())+"\n")
	return err
}
