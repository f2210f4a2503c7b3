package io.rdmarepl.testsupport;
