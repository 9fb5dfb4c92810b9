package cfnregistry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cftypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// Registry is the part of the CloudFormation API that Fetch calls; the
// SDK's *cloudformation.Client is one.
type Registry interface {
	ListTypes(context.Context, *cloudformation.ListTypesInput, ...func(*cloudformation.Options)) (*cloudformation.ListTypesOutput, error)
	DescribeType(context.Context, *cloudformation.DescribeTypeInput, ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error)
}

// FetchOptions narrow what Fetch downloads.
type FetchOptions struct {
	// Types keeps type names matching one of these: an exact name
	// (AWS::S3::Bucket) or a prefix ending in "::" (AWS::S3::). Empty
	// keeps every AWS type, as HashiCorp's awscc generator does.
	Types []string
	// Workers bounds concurrent DescribeType calls (4 when 0): the
	// registry throttles eager clients.
	Workers int
}

// FetchResult says what Fetch wrote.
type FetchResult struct {
	Written []string // type names, sorted
}

// Fetch lists the registry's public, live, provisionable resource types
// (FULLY_MUTABLE and IMMUTABLE, never NON_PROVISIONABLE) and writes each
// kept type's schema into dir as TYPE.json, indented, each file replaced
// atomically. Later runs read dir as the cache laid over the built-in
// schemas. A type that fails to download fails the fetch; files already
// written stay (each is whole).
func Fetch(ctx context.Context, reg Registry, dir string, opts FetchOptions) (FetchResult, error) {
	names, err := listTypes(ctx, reg, opts.Types)
	if err != nil {
		return FetchResult{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return FetchResult{}, fmt.Errorf("creating the schema cache: %w", err)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = 4
	}
	errs := make([]error, len(names))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = fetchOne(ctx, reg, dir, name)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return FetchResult{}, err
		}
	}
	return FetchResult{Written: names}, nil
}

// listTypes pages through ListTypes once per provisioning type and keeps
// the names the filters match, sorted and unique.
func listTypes(ctx context.Context, reg Registry, filters []string) ([]string, error) {
	seen := map[string]bool{}
	for _, pt := range []cftypes.ProvisioningType{cftypes.ProvisioningTypeFullyMutable, cftypes.ProvisioningTypeImmutable} {
		in := &cloudformation.ListTypesInput{
			Visibility:       cftypes.VisibilityPublic,
			Type:             cftypes.RegistryTypeResource,
			DeprecatedStatus: cftypes.DeprecatedStatusLive,
			ProvisioningType: pt,
			MaxResults:       aws.Int32(100),
		}
		for {
			out, err := reg.ListTypes(ctx, in)
			if err != nil {
				return nil, fmt.Errorf("listing CloudFormation registry types: %w", err)
			}
			for _, s := range out.TypeSummaries {
				if name := aws.ToString(s.TypeName); keepType(name, filters) {
					seen[name] = true
				}
			}
			if aws.ToString(out.NextToken) == "" {
				break
			}
			in.NextToken = out.NextToken
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

func keepType(name string, filters []string) bool {
	if _, ok := TypeNameOfFile(FileName(name)); !ok {
		return false
	}
	if len(filters) == 0 {
		return strings.HasPrefix(name, "AWS::")
	}
	for _, f := range filters {
		if name == f || (strings.HasSuffix(f, "::") && strings.HasPrefix(name, f)) {
			return true
		}
	}
	return false
}

// fetchOne downloads one type's schema and writes it atomically.
func fetchOne(ctx context.Context, reg Registry, dir, name string) error {
	out, err := reg.DescribeType(ctx, &cloudformation.DescribeTypeInput{Type: cftypes.RegistryTypeResource, TypeName: aws.String(name)})
	if err != nil {
		return fmt.Errorf("describing %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(aws.ToString(out.Schema)), "", "  "); err != nil {
		return fmt.Errorf("the registry's schema of %s is not JSON: %w", name, err)
	}
	buf.WriteByte('\n')
	return writeAtomic(filepath.Join(dir, FileName(name)), buf.Bytes())
}

// writeAtomic writes a file through a temporary name and a rename, so a
// reader never sees half a schema.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".fetch-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
