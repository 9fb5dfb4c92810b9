package cfnschema

import (
	"runtime"
	"strings"
)

// Option configures loading and translation.
type Option func(*options)

type options struct {
	// prefixes maps a CloudFormation organisation (the first part of a type
	// name, compared case-insensitively) to the prefix of its Terraform type
	// names.
	prefixes       map[string]string
	recursionDepth int
	maxAttributes  int
	workers        int
}

// DefaultRecursionDepth is how many times one definition may be expanded on
// a single path; the next occurrence becomes a JSON string attribute that
// holds the rest of the tree in CloudFormation's own JSON. Two keeps one
// level of nesting typed, which covers the common shapes (a WAFv2 rule whose
// statement is an and_statement of simple statements) while every
// recursive type stays finite: the 17 recursive AWS types grow from 2,955
// to 10,512 attributes in total, against 41,011 at depth three.
const DefaultRecursionDepth = 2

func newOptions(opts []Option) options {
	o := options{
		prefixes:       map[string]string{"aws": "awscc"},
		recursionDepth: DefaultRecursionDepth,
		maxAttributes:  DefaultMaxAttributes,
		workers:        runtime.GOMAXPROCS(0),
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// WithTypeNamePrefix names the types of organisation org (for example "AWS"
// or a private registry's "Initech") with prefix instead of the organisation:
// AWS::EC2::Instance becomes prefix_ec2_instance. The default maps "AWS" to
// "awscc", as HashiCorp's awscc provider does; organisations without a prefix
// use their own name lower-cased (Initech::TPS::Report → initech_tps_report).
func WithTypeNamePrefix(org, prefix string) Option {
	return func(o *options) {
		// Copy on write: options built from the same slice must not share a map.
		m := make(map[string]string, len(o.prefixes)+1)
		for k, v := range o.prefixes {
			m[k] = v
		}
		m[strings.ToLower(org)] = prefix
		o.prefixes = m
	}
}

// WithRecursionDepth sets how many times a definition may appear on one path
// before the next occurrence is represented as a JSON string (see
// DefaultRecursionDepth). Values below 1 are treated as 1.
func WithRecursionDepth(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = 1
		}
		o.recursionDepth = n
	}
}

// DefaultMaxAttributes bounds the attributes (and types of values) one type
// may expand to. The largest AWS type has about 3,200 attributes at the
// default recursion depth; the bound
// exists because definitions that reference each other several times can
// expand exponentially, and a schema must not be able to exhaust memory.
const DefaultMaxAttributes = 100_000

// WithMaxAttributes sets the expansion bound (see DefaultMaxAttributes). A
// type that exceeds it is not loaded and gets an error diagnostic.
func WithMaxAttributes(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = 1
		}
		o.maxAttributes = n
	}
}

// WithConcurrency bounds how many schema files LoadDir and LoadFiles decode
// and translate at once. The default is GOMAXPROCS; values below 1 mean 1.
func WithConcurrency(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = 1
		}
		o.workers = n
	}
}
