package io.rdmarepl.channel;
