package io.rdmarepl.format;
