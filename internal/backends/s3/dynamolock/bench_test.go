package dynamolock

import (
	"context"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/cairn-iac/cairn/internal/testprocess"
)

// BenchmarkLockUnlock is one run's lock round trip against testdynamo on
// loopback, signed and verified as against AWS: what a Cairn run pays
// for dynamodb_table besides the network (the server's work is in the
// same process, so its allocations are counted too). It reports the
// DynamoDB requests per Lock+Unlock and the process's peak RSS.
//
// "own" is a run releasing the lock it took: one conditional DeleteItem.
// "by ID" releases it from another Table that only knows the ID (a
// forced unlock), reading the holder first: the three requests Terraform
// 1.5.7 and OpenTofu 1.12.6 make for every lock.
func BenchmarkLockUnlock(b *testing.B) {
	for _, name := range []string{"own", "by ID"} {
		b.Run(name, func(b *testing.B) {
			srv, tbl := start(b)
			unlocker := tbl
			if name == "by ID" {
				unlocker = New(aws.Config{Region: "us-east-1", Credentials: awsConfig(testKey, testSecret).Credentials}, testTable, srv.URL)
			}
			ctx := context.Background()
			info := lockInfo("")
			srv.ResetCalls()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				info.ID = "bench-" + strconv.Itoa(i)
				if err := tbl.Lock(ctx, testPath, info); err != nil {
					b.Fatal(err)
				}
				if err := unlocker.Unlock(ctx, testPath, info.ID); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			requests := 0
			for _, n := range srv.Calls() {
				requests += n
			}
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
			b.ReportMetric(float64(testprocess.PeakRSS(0))/(1<<20), "MiB-peak-RSS")
		})
	}
}
