// A client-go leader-election candidate (LeaseLock), built by scripts/kube-apiserver.sh from Debian's kubernetes
// source tree, so tests contend with the real LeaderElector. It prints one line per event on stdout:
// "NEW_LEADER <id>", "LEADING <id>", "STOPPED <id>". SIGTERM/SIGINT cancel it, and ReleaseOnCancel clears the Lease.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "path to a kubeconfig")
	namespace := flag.String("namespace", "default", "namespace of the Lease")
	name := flag.String("name", "", "name of the Lease")
	id := flag.String("id", "", "this candidate's identity")
	lease := flag.Duration("lease-duration", 15*time.Second, "LeaseDuration")
	renew := flag.Duration("renew-deadline", 10*time.Second, "RenewDeadline")
	retry := flag.Duration("retry-period", 2*time.Second, "RetryPeriod")
	flag.Parse()
	if *name == "" || *id == "" {
		fmt.Fprintln(os.Stderr, "usage: kube-leader --kubeconfig F --namespace NS --name LEASE --id ID")
		os.Exit(2)
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	client := kubernetes.NewForConfigOrDie(config)
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-signals; cancel() }()
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Name: *name, Namespace: *namespace},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: *id},
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		ReleaseOnCancel: true,
		LeaseDuration:   *lease,
		RenewDeadline:   *renew,
		RetryPeriod:     *retry,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { fmt.Println("LEADING", *id) },
			OnStoppedLeading: func() { fmt.Println("STOPPED", *id) },
			OnNewLeader:      func(leader string) { fmt.Println("NEW_LEADER", leader) },
		},
	})
}
