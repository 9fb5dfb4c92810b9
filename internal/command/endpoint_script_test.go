package command

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/cairn-iac/cairn/cloudcontrol/server"
	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptEndpoints are the Cloud Control endpoints test scripts started,
// by script work directory (scripts run in parallel).
var scriptEndpoints sync.Map

// scriptStopped holds the address of each stopped endpoint, by script
// work directory, for resume.
var scriptStopped sync.Map

// cmdEndpoint drives a real Cloud Control endpoint from a test script. It
// runs in the test process; the cairn commands of the script reach it over
// loopback through AWS_ENDPOINT_URL, as any AWS client would.
//
//	endpoint start [-latency DURATION] [-rate N]
//	                                     start one (data in $WORK/.endpoint) and point AWS_* at it;
//	                                     -rate refuses calls beyond N a second (ccendpoint.Options.Rate)
//	endpoint restart [-latency D] [-rate N]
//	                                     stop it and start it again on the same address and data
//	endpoint stop                        stop it (an outage: connections are refused)
//	endpoint resume                      start a stopped one again on the same address and data
//	endpoint count TYPE N                check the endpoint holds exactly N resources of TYPE
//	endpoint throttled                   check it refused some call with ThrottlingException (with !, none)
//	endpoint fault JSON                  install a server.Fault ({"typeName":..,"operation":..,"errorCode":..,"throttle":N,"delay":"2s"})
//	endpoint clear                       remove every fault
//	endpoint create TYPE JSON            create a resource behind Cairn's back, print its identifier
//	endpoint get TYPE ID                 print the resource's properties (JSON) to stdout
//	endpoint patch TYPE ID PATCH         change a resource behind Cairn's back (drift)
//	endpoint delete TYPE ID              delete a resource behind Cairn's back
//	endpoint await TYPE ID REGEXP        wait up to a minute until get's output matches REGEXP
//	                                     (with !, until the resource does not exist)
//	endpoint inflight OPERATION          wait up to a minute for a request of OPERATION
//	                                     (CREATE, UPDATE, DELETE) to be in progress
func cmdEndpoint(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: endpoint start|restart|fault|clear|get|patch|delete ...")
	}
	work := ts.Getenv("WORK")
	var e *ccendpoint.Endpoint
	if v, ok := scriptEndpoints.Load(work); ok {
		e = v.(*ccendpoint.Endpoint)
	}
	if args[0] != "start" && args[0] != "resume" && e == nil {
		ts.Fatalf("endpoint %s: no endpoint started", args[0])
	}
	switch args[0] {
	case "start":
		startScriptEndpointWith(ts, work, "127.0.0.1:0", endpointOptions(ts, args[1:]))
	case "throttled":
		_, n := e.Calls()
		if (n > 0) == neg {
			ts.Fatalf("endpoint throttled %d calls", n)
		}
	case "restart":
		addr := strings.TrimPrefix(e.URL, "http://")
		ts.Check(e.Close())
		startScriptEndpointWith(ts, work, addr, endpointOptions(ts, args[1:]))
	case "stop":
		scriptEndpoints.CompareAndDelete(work, e)
		ts.Check(e.Close())
		scriptStopped.Store(work, strings.TrimPrefix(e.URL, "http://"))
	case "resume":
		addr, ok := scriptStopped.LoadAndDelete(work)
		if !ok {
			ts.Fatalf("endpoint resume: no endpoint stopped")
		}
		startScriptEndpoint(ts, work, addr.(string), 0)
	case "count":
		countResources(ts, e, args)
	case "fault":
		var f server.Fault
		ts.Check(json.Unmarshal([]byte(args[1]), &f))
		ts.Check(e.Server().SetFault(f))
	case "clear":
		e.Server().ClearFaults()
	case "await":
		awaitResource(ts, e, neg, args)
	case "inflight":
		awaitInFlight(ts, e, args)
	case "create", "get", "patch", "delete":
		err := scriptResourceCall(ts, e, args)
		switch {
		case neg && err == nil:
			ts.Fatalf("endpoint %s succeeded unexpectedly", args[0])
		case !neg:
			ts.Check(err)
		}
	default:
		ts.Fatalf("endpoint: unknown verb %q", args[0])
	}
}

// endpointOptions reads the options of endpoint start and restart.
func endpointOptions(ts *testscript.TestScript, args []string) ccendpoint.Options {
	var opts ccendpoint.Options
	for ; len(args) >= 2; args = args[2:] {
		switch args[0] {
		case "-latency":
			d, err := time.ParseDuration(args[1])
			ts.Check(err)
			opts.Latency = d
		case "-rate":
			r, err := strconv.ParseFloat(args[1], 64)
			ts.Check(err)
			opts.Rate = r
		default:
			ts.Fatalf("endpoint: unknown option %s", args[0])
		}
	}
	if len(args) > 0 {
		ts.Fatalf("endpoint: option %s has no value", args[0])
	}
	return opts
}

func startScriptEndpoint(ts *testscript.TestScript, work, addr string, latency time.Duration) {
	startScriptEndpointWith(ts, work, addr, ccendpoint.Options{Latency: latency})
}

// startScriptEndpointWith starts an endpoint with opts on addr, its data
// in the script's work directory.
func startScriptEndpointWith(ts *testscript.TestScript, work, addr string, opts ccendpoint.Options) {
	opts.Addr, opts.DataDir = addr, filepath.Join(work, ".endpoint")
	e, err := ccendpoint.Start(opts)
	ts.Check(err)
	scriptEndpoints.Store(work, e)
	ts.Defer(func() {
		if scriptEndpoints.CompareAndDelete(work, e) {
			e.Close()
		}
	})
	ts.Setenv("AWS_ENDPOINT_URL", e.URL)
	ts.Setenv("AWS_ACCESS_KEY_ID", "script")
	ts.Setenv("AWS_SECRET_ACCESS_KEY", "script")
	ts.Setenv("AWS_REGION", "us-east-1")
	ts.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// scriptResourceCall reads or changes a resource directly through the
// Cloud Control API, waiting for a change to finish.
func scriptResourceCall(ts *testscript.TestScript, e *ccendpoint.Endpoint, args []string) error {
	if len(args) < 3 {
		ts.Fatalf("usage: endpoint %s TYPE ID ...", args[0])
	}
	ctx := context.Background()
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("script", "script", "")}
	cc := cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	typ, id := aws.String(args[1]), aws.String(args[2])
	var token *string
	switch args[0] {
	case "create":
		out, err := cc.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: typ, DesiredState: id})
		if err != nil {
			return err
		}
		token = out.ProgressEvent.RequestToken
	case "get":
		out, err := cc.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: typ, Identifier: id})
		if err != nil {
			return err
		}
		fmt.Fprintln(ts.Stdout(), aws.ToString(out.ResourceDescription.Properties))
		return nil
	case "patch":
		if len(args) != 4 {
			ts.Fatalf("usage: endpoint patch TYPE ID PATCH")
		}
		out, err := cc.UpdateResource(ctx, &cloudcontrol.UpdateResourceInput{TypeName: typ, Identifier: id, PatchDocument: aws.String(args[3])})
		if err != nil {
			return err
		}
		token = out.ProgressEvent.RequestToken
	case "delete":
		out, err := cc.DeleteResource(ctx, &cloudcontrol.DeleteResourceInput{TypeName: typ, Identifier: id})
		if err != nil {
			return err
		}
		token = out.ProgressEvent.RequestToken
	}
	w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
		o.MinDelay, o.MaxDelay = 10*time.Millisecond, 100*time.Millisecond
	})
	out, err := w.WaitForOutput(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: token}, 30*time.Second)
	if err != nil {
		return err
	}
	if args[0] == "create" {
		fmt.Fprintln(ts.Stdout(), aws.ToString(out.ProgressEvent.Identifier))
	}
	return nil
}

// countResources lists every resource of a type (ListResources, every
// page) and checks how many there are: a test that nothing was created
// twice.
func countResources(ts *testscript.TestScript, e *ccendpoint.Endpoint, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: endpoint count TYPE N")
	}
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("script", "script", "")}
	cc := cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	pages := cloudcontrol.NewListResourcesPaginator(cc, &cloudcontrol.ListResourcesInput{TypeName: aws.String(args[1])})
	var ids []string
	for pages.HasMorePages() {
		out, err := pages.NextPage(context.Background())
		ts.Check(err)
		for _, d := range out.ResourceDescriptions {
			ids = append(ids, aws.ToString(d.Identifier))
		}
	}
	if got := fmt.Sprint(len(ids)); got != args[2] {
		ts.Fatalf("endpoint count %s: %s resources, want %s: %v", args[1], got, args[2], ids)
	}
}

// awaitResource polls a resource until its properties match a regular
// expression, or (neg) until it is gone: the controller's work is
// asynchronous to the script.
func awaitResource(ts *testscript.TestScript, e *ccendpoint.Endpoint, neg bool, args []string) {
	if (!neg && len(args) != 4) || (neg && len(args) != 3) {
		ts.Fatalf("usage: endpoint await TYPE ID REGEXP | ! endpoint await TYPE ID")
	}
	var re *regexp.Regexp
	if !neg {
		var err error
		re, err = regexp.Compile(args[3])
		ts.Check(err)
	}
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("script", "script", "")}
	cc := cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	last := ""
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, err := cc.GetResource(context.Background(), &cloudcontrol.GetResourceInput{TypeName: aws.String(args[1]), Identifier: aws.String(args[2])})
		switch {
		case neg && err != nil && strings.Contains(err.Error(), "NotFound"):
			return
		case err != nil:
			last = err.Error()
		case !neg:
			last = aws.ToString(out.ResourceDescription.Properties)
			if re.MatchString(last) {
				fmt.Fprintln(ts.Stdout(), last)
				return
			}
		}
	}
	ts.Fatalf("endpoint await %s %s: gave up after a minute; last answer: %s", args[1], args[2], last)
}

// awaitInFlight polls ListResourceRequests until a request of the given
// operation is in progress: a script interrupts a client in the middle of
// a request, not before it was sent.
func awaitInFlight(ts *testscript.TestScript, e *ccendpoint.Endpoint, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: endpoint inflight OPERATION")
	}
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("script", "script", "")}
	cc := cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(e.URL) })
	filter := &cctypes.ResourceRequestStatusFilter{
		Operations:        []cctypes.Operation{cctypes.Operation(args[1])},
		OperationStatuses: []cctypes.OperationStatus{cctypes.OperationStatusInProgress},
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		out, err := cc.ListResourceRequests(context.Background(), &cloudcontrol.ListResourceRequestsInput{ResourceRequestStatusFilter: filter})
		ts.Check(err)
		if len(out.ResourceRequestStatusSummaries) > 0 {
			return
		}
	}
	ts.Fatalf("endpoint inflight %s: no such request in progress after a minute", args[1])
}
