package server

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ccapi "github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/google/go-cmp/cmp"
)

// TestListResourcesPaging pages five log groups two at a time with the
// SDK's paginator.
func TestListResourcesPaging(t *testing.T) {
	h := newHarness(t, nil)
	for i := range 5 {
		h.mustSucceed(h.create(logGroupType, fmt.Sprintf(`{"LogGroupName":"g%d"}`, i)))
	}
	p := ccapi.NewListResourcesPaginator(h.client, &ccapi.ListResourcesInput{
		TypeName: aws.String(logGroupType), MaxResults: aws.Int32(2)})
	var pages [][]string
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range out.ResourceDescriptions {
			ids = append(ids, aws.ToString(d.Identifier))
		}
		pages = append(pages, ids)
	}
	want := [][]string{{"g0", "g1"}, {"g2", "g3"}, {"g4"}}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
}

// TestListResourceRequestsFilters lists requests by operation and
// status, newest first, and pages them.
func TestListResourceRequestsFilters(t *testing.T) {
	h := newHarness(t, nil)
	h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"a"}`))
	h.mustSucceed(h.create(logGroupType, `{"LogGroupName":"b"}`))
	del, err := h.client.DeleteResource(context.Background(), &ccapi.DeleteResourceInput{
		TypeName: aws.String(logGroupType), Identifier: aws.String("missing")})
	if err != nil {
		t.Fatal(err)
	}
	h.wait(del.ProgressEvent.RequestToken)

	cases := map[string]struct {
		filter *cctypes.ResourceRequestStatusFilter
		want   []string // operation/identifier/status, newest first
	}{
		"all": {want: []string{"DELETE/missing/FAILED", "CREATE/b/SUCCESS", "CREATE/a/SUCCESS"}},
		"creates": {filter: &cctypes.ResourceRequestStatusFilter{Operations: []cctypes.Operation{"CREATE"}},
			want: []string{"CREATE/b/SUCCESS", "CREATE/a/SUCCESS"}},
		"failed": {filter: &cctypes.ResourceRequestStatusFilter{OperationStatuses: []cctypes.OperationStatus{"FAILED"}},
			want: []string{"DELETE/missing/FAILED"}},
		"failed creates": {filter: &cctypes.ResourceRequestStatusFilter{Operations: []cctypes.Operation{"CREATE"},
			OperationStatuses: []cctypes.OperationStatus{"FAILED"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := ccapi.NewListResourceRequestsPaginator(h.client, &ccapi.ListResourceRequestsInput{
				ResourceRequestStatusFilter: tc.filter, MaxResults: aws.Int32(1)})
			var got []string
			for p.HasMorePages() {
				out, err := p.NextPage(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range out.ResourceRequestStatusSummaries {
					got = append(got, fmt.Sprintf("%s/%s/%s", ev.Operation, aws.ToString(ev.Identifier), ev.OperationStatus))
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("summaries (-want +got):\n%s", diff)
			}
		})
	}
}
