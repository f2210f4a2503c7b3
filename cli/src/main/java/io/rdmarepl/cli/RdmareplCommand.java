package io.rdmarepl.cli;

public final class RdmareplCommand {
    public static void main(String[] args) {
    }
}
